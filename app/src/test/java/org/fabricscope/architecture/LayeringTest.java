package org.fabricscope.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The layering of docs/architecture.md, enforced: app -> importers -> model, UI toolkit only in app. */
class LayeringTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.fabricscope");
    }

    @Test
    void modelAndImportersDoNotUseJavaFx() {
        noClasses().that().resideInAnyPackage("org.fabricscope.model..", "org.fabricscope.importers..")
                .should().dependOnClassesThat().resideInAnyPackage("javafx..")
                .because("the model and importers run headless in the CLI and in tests; the UI toolkit lives in app/")
                .check(classes);
    }

    @Test
    void modelDependsOnNothingAboveIt() {
        noClasses().that().resideInAPackage("org.fabricscope.model..")
                .should().dependOnClassesThat().resideInAnyPackage("org.fabricscope.importers..", "org.fabricscope.app..")
                .because("the model is the bottom layer: importers fill it and the app shows it")
                .check(classes);
    }

    @Test
    void importersDoNotDependOnTheApp() {
        noClasses().that().resideInAPackage("org.fabricscope.importers..")
                .should().dependOnClassesThat().resideInAPackage("org.fabricscope.app..")
                .because("importers are shared by the CLI and the desktop app")
                .check(classes);
    }

    @Test
    void cliDoesNotLoadTheUiToolkit() {
        noClasses().that().resideInAnyPackage("org.fabricscope.app.cli..", "org.fabricscope.app.live..")
                .should().dependOnClassesThat().resideInAPackage("javafx..")
                .because("the CLI must start and run on a machine with no display")
                .check(classes);
    }
}
