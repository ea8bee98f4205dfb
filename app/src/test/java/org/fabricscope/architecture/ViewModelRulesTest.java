package org.fabricscope.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/decisions/0005-view-models-and-fxml.md, enforced: view models hold state and actions but no
 * controls (JavaFX properties and collections only); navigation and background tasks need no toolkit.
 */
class ViewModelRulesTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.fabricscope.app");
    }

    @Test
    void viewModelsTouchNoControls() {
        noClasses().that().haveSimpleNameEndingWith("ViewModel").or().haveSimpleName("Loader").or().haveSimpleName("LiveConnection")
                .or().haveSimpleName("SideTabs")
                .should().dependOnClassesThat().resideInAnyPackage("javafx.scene..", "javafx.stage..", "javafx.fxml..",
                        "javafx.application..", "javafx.animation..")
                .orShould().dependOnClassesThat().areAssignableTo("javafx.scene.Node")
                .because("a view model is tested without a stage; its view binds to it")
                .check(classes);
    }

    @Test
    void navigationAndBackgroundTasksNeedNoToolkit() {
        noClasses().that().resideInAnyPackage("org.fabricscope.app.nav..", "org.fabricscope.app.task..")
                .should().dependOnClassesThat().resideInAPackage("javafx..")
                .orShould().dependOnClassesThat().resideInAPackage("org.fabricscope.app.ui..")
                .because("subjects resolve, and tasks run, the same in tests and in the window")
                .check(classes);
    }
}
