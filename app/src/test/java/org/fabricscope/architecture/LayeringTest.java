package org.fabricscope.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

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
        // the importers' test-jar (a test dependency of app) is on the class path too: leave it out
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
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

    @Test
    void userStateStoresAreToolkitFree() {
        noClasses().that().resideInAPackage("org.fabricscope.app.prefs..")
                .should().dependOnClassesThat().resideInAnyPackage("javafx..", "org.fabricscope.app.ui..")
                .because("recent files and window geometry are plain files read and written off the FX thread and"
                        + " tested without a toolkit; the window only asks them where to go")
                .check(classes);
    }

    @Test
    void noPackageCycles() {
        slices().matching("org.fabricscope.(**)").should().beFreeOfCycles()
                .because("a cycle between packages makes them one unit: neither can be understood, tested or"
                        + " moved without the other (model was made acyclic: model.core, model.fabric, model, then"
                        + " the layers)")
                .check(classes);
    }

    @Test
    void cliDoesNotDependOnTheUi() {
        noClasses().that().resideInAPackage("org.fabricscope.app.cli..")
                .should().dependOnClassesThat().resideInAPackage("org.fabricscope.app.ui..")
                .because("the CLI runs without JavaFX; it opens the window through the DesktopLauncher service"
                        + " (app.common) and renders the bench frame with app.render")
                .check(classes);
    }

    @Test
    void renderingDoesNotUseJavaFx() {
        noClasses().that().resideInAPackage("org.fabricscope.app.render..")
                .should().dependOnClassesThat().resideInAPackage("javafx..")
                .because("maps are coloured and rasterised off the FX thread and by the CLI's bench, with no toolkit;"
                        + " the palette reaches them as ARGB ints read from app.css")
                .check(classes);
    }

    @Test
    void renderingDependsOnlyOnTheModel() {
        noClasses().that().resideInAPackage("org.fabricscope.app.render..")
                .should().dependOnClassesThat().resideInAnyPackage("org.fabricscope.app.ui..", "org.fabricscope.app.cli..",
                        "org.fabricscope.app.live..", "org.fabricscope.importers..")
                .because("the UI and the CLI both draw with it")
                .check(classes);
    }

    @Test
    void sharedAppTypesDependOnNoOtherAppPackage() {
        noClasses().that().resideInAPackage("org.fabricscope.app.common..")
                .should().dependOnClassesThat(resideInAPackage("org.fabricscope.app..")
                        .and(not(resideInAPackage("org.fabricscope.app.common.."))))
                .because("app.common (Version, DesktopLauncher) is what the CLI and the UI share; it sits below both")
                .check(classes);
    }

    @Test
    void modelCoreDependsOnNoOtherPackageOfOurs() {
        noClasses().that().resideInAPackage("org.fabricscope.model.core..")
                .should().dependOnClassesThat(resideInAPackage("org.fabricscope..")
                        .and(not(resideInAPackage("org.fabricscope.model.core.."))))
                .because("model.core holds the types every model layer shares (vertices, findings, severities,"
                        + " diagnostics); it must stay at the bottom for the layers above it to stay acyclic")
                .check(classes);
    }

    @Test
    void importersReadFilesOnly() {
        noClasses().that().resideInAPackage("org.fabricscope.importers..")
                .should().dependOnClassesThat().resideInAnyPackage("io.fabric8..", "java.net.http..")
                .because("importers read files; live sources (a cluster, later Prometheus) are a contract of their own in"
                        + " app.live.source (decision 0013)")
                .check(classes);
    }

    @Test
    void liveSourcesAreOpenedThroughTheRegistry() {
        noClasses().that().resideInAnyPackage("org.fabricscope.app.cli..", "org.fabricscope.app.ui..", "org.fabricscope.app.live")
                .should().dependOnClassesThat().haveFullyQualifiedName("org.fabricscope.app.live.kube.ClusterReader")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("org.fabricscope.app.live.kube.ClusterWatch")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("org.fabricscope.app.live.kube.KubeLiveSource")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("org.fabricscope.app.live.kube.KubeConnection")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("org.fabricscope.app.live.kube.PodLogFollower")
                .because("the CLI options, the connect dialog and the live job open live sources through one registry"
                        + " (StandardSources), so that a new source plugs in without touching them (decision 0013)")
                .check(classes);
        noClasses().that().resideInAPackage("org.fabricscope.app.live.source..")
                .should().dependOnClassesThat().resideInAPackage("org.fabricscope.app.live.kube..")
                .because("the live source contract names no source")
                .check(classes);
    }
}
