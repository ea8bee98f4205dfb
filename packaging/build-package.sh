#!/usr/bin/env bash
# Build FabricScope's self-contained app-image and .deb: jdeps -> jlink -> jpackage.
#
#   bash packaging/build-package.sh [VERSION]        (or: ./mvnw -B -Pdist package -DskipTests)
#
# Needs the app built first (./mvnw -B package): app/target/fabricscope-app.jar + app/target/lib/.
# Uses the JDK that runs it: $JAVA_HOME, else the one the `java` on PATH belongs to. JDK 17+.
# Everything goes to packaging/out/ (gitignored):
#   out/runtime/            the jlink'ed Java runtime (JDK modules only, see step 3)
#   out/FabricScope/        the app-image: bin/FabricScope (GUI, or CLI with arguments),
#                           bin/fabricscope-cli (CLI only), lib/app/ (jars + sample), lib/runtime/
#   out/fabricscope_*.deb   the Debian package (installs to /opt/fabricscope, links /usr/bin/fabricscope)
# Set SKIP_DEB=1 to stop after the app-image.
#
# JavaFX: the javafx-*-linux.jar files from Maven Central are modular jars with the native
# libraries inside, not jmods, so they are not linked into the runtime. They go into the app
# (lib/app/lib/) and the GUI launcher puts them on the module path with
#   --module-path $APPDIR/lib/javafx-... --add-modules javafx.controls,javafx.fxml
# which is what the repo's ./fabricscope script does too. See packaging/README.md.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
out="$here/out"
app_jar="$root/app/target/fabricscope-app.jar"
app_lib="$root/app/target/lib"
sample="$root/sample-fabrics/rail-2su-hdr"
main_class="org.fabricscope.app.Main"
name="FabricScope"

die() { echo "build-package: error: $*" >&2; exit 1; }
step() { echo "build-package: $*" >&2; }

# ---- 1. the JDK --------------------------------------------------------------------------------
if [ -n "${JAVA_HOME:-}" ]; then
  jdk="$JAVA_HOME"
else
  java_on_path="$(command -v java)" || die "no JAVA_HOME and no java on PATH; install a JDK 17+ (with jpackage)"
  jdk="$(cd "$(dirname "$(readlink -f "$java_on_path")")/.." && pwd)"
fi
for tool in java jar jdeps jlink jpackage; do
  [ -x "$jdk/bin/$tool" ] || die "$jdk/bin/$tool not found: this needs a full JDK 17+ with jpackage
  (a JRE or a headless JDK package lacks it; e.g. apt-get install openjdk-17-jdk, or set JAVA_HOME)"
done
java_feature="$("$jdk/bin/java" -XshowSettings:properties -version 2>&1 \
  | sed -n 's/^ *java.specification.version = //p')"
[ "${java_feature%%.*}" -ge 17 ] 2>/dev/null || die "$jdk is Java $java_feature; jpackage needs 17+"
step "JDK $jdk (Java $java_feature)"

# ---- 2. inputs ---------------------------------------------------------------------------------
[ -f "$app_jar" ] && [ -d "$app_lib" ] || die "$app_jar or $app_lib missing: run ./mvnw -B package first
  (from $root; add -DskipTests to go faster)"

# Version: the argument (Maven passes ${project.version}), else the parent pom's.
version="${1:-$(sed -n 's:.*<artifactId>fabricscope-parent</artifactId>.*<version>\([^<]*\)</version>.*:\1:p;
                       s:^  <version>\([^<]*\)</version>:\1:p' "$root/pom.xml" | head -n 1)}"
# jpackage wants a plain numeric version (1 to 3 dotted numbers on Linux is safe):
# 0.1.0-SNAPSHOT -> app-version 0.1.0 and Debian revision 0~snapshot (sorts before 0.1.0-1).
app_version="$(printf '%s' "$version" | grep -oE '^[0-9]+(\.[0-9]+){0,2}')" \
  || die "cannot make a numeric version out of '$version'"
release="1"
case "$version" in *-SNAPSHOT) release="0~snapshot" ;; esac
step "version $version -> app-version $app_version, deb revision $release"

fx_jars=("$app_lib"/javafx-*-linux.jar)
[ -f "${fx_jars[0]}" ] || die "no javafx-*-linux.jar in $app_lib: this recipe packages for Linux
  (the app module copies the platform jars of the machine that builds it)"

rm -rf "$out"
mkdir -p "$out"

# The app's files, as jpackage --input: everything here ends up in <image>/lib/app/ ($APPDIR).
# The jar's manifest Class-Path (lib/...) resolves against $APPDIR, so keep lib/ next to it.
# The empty javafx-*.jar (no classifier: just a manifest) are left out; missing Class-Path
# entries are ignored by the JVM.
input="$out/input"
mkdir -p "$input/lib"
cp "$app_jar" "$input/"
for j in "$app_lib"/*.jar; do
  case "$(basename "$j")" in
    javafx-*-linux.jar) cp "$j" "$input/lib/" ;;
    javafx-*.jar) ;;
    *) cp "$j" "$input/lib/" ;;
  esac
done
default_args=(--arguments gui)
if [ -d "$sample" ]; then
  mkdir -p "$input/samples"
  cp -r "$sample" "$input/samples/"
  default_args+=(--arguments "\$APPDIR/samples/$(basename "$sample")")
  step "bundling sample $sample"
else
  step "no $sample: the app opens empty when started without arguments"
fi

# ---- 3. jdeps: which JDK modules are needed -------------------------------------------------------
# The app and its non-JavaFX libraries, analysed recursively on the class path ...
step "jdeps (takes a few seconds)"
non_fx_cp="$(ls "$input"/lib/*.jar | grep -v '/javafx-' | tr '\n' ':')"
app_modules="$("$jdk/bin/jdeps" --multi-release "${java_feature%%.*}" --ignore-missing-deps \
  --print-module-deps --recursive --class-path "${non_fx_cp%:}" "$input/fabricscope-app.jar")"
# ... plus what the JavaFX modules require (their module-info says exactly; `requires static`
# such as jdk.jfr is optional and left out).
fx_modules="$(for j in "$input"/lib/javafx-*-linux.jar; do
    "$jdk/bin/jar" --describe-module --file "$j" | awk '$1 == "requires" && $0 !~ / static/ { print $2 }'
  done | grep -E '^(java|jdk)\.' | sort -u | paste -sd, -)"
# jdk.crypto.ec: elliptic-curve TLS, in case anything ever talks https (a separate module up to
# JDK 21; folded into java.base since). Locale data (jdk.localedata) is left out on purpose:
# the app's UI and reports are English-only.
extra_modules=""
# grep reads the whole list (not -q): under pipefail, a java cut off by grep -q's early exit fails the pipe
"$jdk/bin/java" --list-modules | grep '^jdk\.crypto\.ec@' >/dev/null && extra_modules="jdk.crypto.ec"
modules="$(printf '%s\n' "$app_modules,$fx_modules,$extra_modules" | tr ',' '\n' | sed '/^$/d' \
  | sort -u | paste -sd, -)"
step "runtime modules: $modules"

# ---- 4. jlink: a small runtime ------------------------------------------------------------------
compress="--compress=2"
[ "${java_feature%%.*}" -ge 21 ] && compress="--compress=zip-6"
"$jdk/bin/jlink" \
  --add-modules "$modules" \
  --output "$out/runtime" \
  --strip-debug --no-header-files --no-man-pages \
  "$compress"
# bin/java is kept (no --strip-native-commands): bin/fabricscope-cli is a script that runs it (below)
step "runtime: $(du -sh "$out/runtime" | cut -f1)"

# ---- 5. jpackage: the app-image ----------------------------------------------------------------
# GUI launcher (bin/FabricScope): JavaFX on the module path. With no arguments it runs
# `gui <bundled sample>`; with arguments, those go to Main (the CLI: summary, diagnose, gui ...).
fx_module_path="$(for j in "$input"/lib/javafx-*-linux.jar; do printf '$APPDIR/lib/%s:' "$(basename "$j")"; done)"
fx_module_path="${fx_module_path%:}"

# CLI (bin/fabricscope-cli): a script, installed after the app-image is made (step 5), not a jpackage
# launcher: jpackage's Linux launcher asks rpm and dpkg which package owns it on every start, 0.4-1.3 s
# that scripts calling the CLI many times paid each call. It runs the runtime's bin/java with the
# quick-start JIT/GC settings of ./fabricscope and the class-data archive the postinst makes; no
# arguments prints the help. (Its `gui` command still works: JavaFX then loads from the class path,
# with a JavaFX warning; use bin/FabricScope for the GUI.)

common=(
  --name "$name"
  --app-version "$app_version"
  --vendor "FabricScope"
  --description "Fabric topology visualizer and troubleshooting assistant for GPU training clusters"
  --copyright "FabricScope contributors"
)
step "jpackage app-image"
"$jdk/bin/jpackage" --type app-image "${common[@]}" \
  --dest "$out" \
  --input "$input" \
  --main-jar fabricscope-app.jar \
  --main-class "$main_class" \
  --runtime-image "$out/runtime" \
  --java-options "--module-path $fx_module_path" \
  --java-options "--add-modules javafx.controls,javafx.fxml" \
  "${default_args[@]}"
# The capture script (POSIX sh, no Java) and the CLI script beside the GUI launcher.
install -m 0755 "$here/fabricscope-capture" "$out/$name/bin/fabricscope-capture"
install -m 0755 "$here/fabricscope-cli" "$out/$name/bin/fabricscope-cli"
install -m 0755 "$here/fabricscope-entry" "$out/$name/bin/fabricscope"   # /usr/bin/fabricscope: the window or the CLI
install -m 0755 "$here/make-cli-archive" "$out/$name/lib/make-cli-archive"   # run by the postinst
install -m 0644 "$here/java-huge-pages" "$out/$name/lib/java-huge-pages"      # sourced by both scripts
step "app-image: $out/$name ($(du -sh "$out/$name" | cut -f1))"

# ---- 6. jpackage: the .deb ---------------------------------------------------------------------
if [ "${SKIP_DEB:-0}" = "1" ]; then
  step "SKIP_DEB=1: no .deb"
  exit 0
fi
command -v dpkg-deb >/dev/null || die "dpkg-deb not found: the .deb needs a Debian/Ubuntu build machine (or SKIP_DEB=1)"
command -v fakeroot >/dev/null || die "fakeroot not found: apt-get install fakeroot (or SKIP_DEB=1)"
# jpackage adds the libraries the runtime links against (libc6, zlib ...) found with dpkg -S;
# JavaFX's natives are inside the jars, so GTK 3 (glass) must be named by hand. libgtk-3-0 pulls
# in cairo, pango, gdk-pixbuf, X11 and GL; on Debian 13 / Ubuntu 24.04 libgtk-3-0t64 provides it.
# deb-resources/ replaces jpackage's desktop file (FabricScope.desktop: Exec is bin/fabricscope, which starts the
# window without jpackage's launcher and its package-manager queries) and its postinst/prerm: jpackage (17 and 25 alike) makes a menu entry
# for every launcher, fabricscope-cli included; ours installs the GUI's only and links
# /usr/bin/fabricscope -> bin/fabricscope (the window by bin/FabricScope, other commands by bin/fabricscope-cli),
# /usr/bin/fabricscope-cli -> bin/fabricscope-cli and
# /usr/bin/fabricscope-capture -> bin/fabricscope-capture.
step "jpackage deb"
"$jdk/bin/jpackage" --type deb "${common[@]}" \
  --dest "$out" \
  --resource-dir "$here/deb-resources" \
  --app-image "$out/$name" \
  --linux-package-name fabricscope \
  --linux-app-release "$release" \
  --linux-package-deps "libgtk-3-0" \
  --linux-deb-maintainer "maintainers@fabricscope.invalid" \
  --linux-menu-group "Development;Network" \
  --linux-app-category "net" \
  --linux-shortcut
deb="$(ls "$out"/*.deb)"
step "deb: $deb ($(du -h "$deb" | cut -f1))"
