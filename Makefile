# Feature Lab — the two commands of the README:
#   make run    set up a fresh Debian machine, build, and open the window on the built-in sample
#   make test   set up, then go vet + go test -race (whole module, headless, -tags ci and the shipped tags) + a few thousand fuzzed inputs per fuzz target + the real-window smoke test under Xvfb + the release files' check
# make bench prints defaults against the papers' path on the real folders (wall, peak memory, K);
# and, for users: make dist (the .tar.xz and the .deb in dist/, and for Windows a .zip and an
# installer), make install / uninstall (PREFIX=/usr/local, DESTDIR), make user-install /
# user-uninstall (~/.local). make windows cross-builds bin/featurelab.exe; make windows-check
# runs it under Wine against the Linux build (not part of make test yet).
GO ?= go
BIN := bin/featurelab

# One binary: `make build` links what the tests, the smoke test and `make dist` use, with
# what Fyne's packager would give it. TAGS has migrated_fynedo while FyneApp.toml's
# [Migrations] fyneDo is true, as `fyne package` adds it (Fyne's locks become no-ops: the
# app calls Fyne from fyne.Do only); the app metadata comes from FyneApp.toml, embedded by
# main.go; -s -w as `fyne package --release` (37 MB instead of 48); the commit for
# --version, as GOFLAGS=-buildvcs=false here keeps the toolchain from recording it.
TAGS := $(shell grep -Eq '^[[:space:]]*fyneDo[[:space:]]*=[[:space:]]*true' FyneApp.toml && echo migrated_fynedo)
COMMIT := $(shell c=$$(git rev-parse --short=12 HEAD 2>/dev/null) && { git diff --quiet HEAD -- 2>/dev/null || c=$$c-dirty; echo $$c; } || echo unknown)
TESTTAGS := ci$(TAGS:%=,%)
LDFLAGS := -s -w -X featurelab/internal/about.commit=$(COMMIT)
DIST := dist
# make install / uninstall: where, as in the archive's Makefile (and GNU's conventions).
PREFIX ?= /usr/local
DESTDIR ?=
APPID := $(shell sed -nE 's/^[[:space:]]*ID[[:space:]]*=[[:space:]]*"([^"]*)".*/\1/p' FyneApp.toml)

.PHONY: run test setup setup-test setup-dist build vet unit fuzz smoke screenshots first-paint bench gobench bench-scale segment-compare samples fmt \
	archive dist dist-linux dist-check install uninstall user-install user-uninstall \
	setup-windows setup-windows-check windows windows-dist windows-check

setup:
	@bash scripts/setup.sh

setup-test:
	@bash scripts/setup.sh --test

setup-dist:
	@bash scripts/setup.sh --dist

setup-windows:
	@bash scripts/setup.sh --windows

setup-windows-check:
	@bash scripts/setup.sh --windows-check

build: setup
	$(GO) build -tags '$(TAGS)' -ldflags '$(LDFLAGS)' -o $(BIN) .

run: build
	./$(BIN)

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(GO) vet -tags '$(TAGS)' ./...
	$(GO) vet -tags '$(TESTTAGS)' ./...

# Two kinds of test, two passes (internal/accuracy): the unit and window tests under the
# race detector, on small fixtures; then, without it, the accuracy checks alone (real data
# sets, generated folders of scenes, long restarts and sweeps: the tests that call
# accuracy.Check, which the race pass skips, listed by scripts/accuracytests), so that
# every test runs in exactly one pass.
unit:
	$(GO) test -race -tags '$(TESTTAGS)' -count=1 -timeout 25m ./...
	$(GO) test -tags '$(TESTTAGS)' -count=1 ./internal/accuracy
	checks=$$($(GO) run ./scripts/accuracytests) && $(GO) test -tags '$(TESTTAGS)' -count=1 -timeout 15m $$checks

# Each fuzz target runs a few seconds' worth of new inputs on top of its seed corpus (the
# seeds, and the inputs that found bugs, in testdata/fuzz, also run in every plain go
# test). The budgets are counts, not durations: a duration races Go 1.26's fuzzing
# coordinator at its deadline and can fail with "context deadline exceeded" and no input
# (golang/go#75804, fixed in Go 1.27).
fuzz:
	$(GO) test -run XXX -fuzz '^FuzzLearners$$' -fuzztime 5000x ./algorithms/
	$(GO) test -run XXX -fuzz '^FuzzSegment$$' -fuzztime 3000x ./algorithms/segment/
	$(GO) test -run XXX -fuzz '^FuzzDecodePFM$$' -fuzztime 50000x ./imgproc/
	$(GO) test -run XXX -fuzz '^FuzzDecodePNM$$' -fuzztime 50000x ./imgproc/
	$(GO) test -run XXX -fuzz '^FuzzDecodeJPEGReduced$$' -fuzztime 20000x ./imgproc/
	$(GO) test -run XXX -fuzz '^FuzzGradientDescriptors$$' -fuzztime 20000x ./imgproc/
	$(GO) test -run XXX -fuzz '^FuzzOpenSaved$$' -fuzztime 20000x ./app/saved/
	$(GO) test -tags '$(TESTTAGS)' -run XXX -fuzz '^FuzzOpenSavedAndDraw$$' -fuzztime 100x ./views/

# The guide's pictures (docs/img), from the real window under Xvfb; redo them when the
# window changes (TestGuidePicturesAreCurrent says when).
screenshots: build setup-test
	bash scripts/screenshots.sh $(BIN)

smoke: build
	bash scripts/window-smoke.sh $(BIN)
	bash scripts/first-paint.sh $(BIN) 1

test: setup-test vet unit fuzz smoke dist-check

# The release files, from the binary `make build` made (no second build): the archive by
# Fyne's packager, pinned in go.mod (`go tool fyne`), and the .deb from the same tree.
archive: build setup-dist
	bash scripts/dist.sh archive $(BIN) $(DIST)

# The Linux release files alone: what make test checks (a Windows build from a cold cache
# takes about 10 minutes on 2 cores; make windows-check checks it).
dist-linux: archive
	bash scripts/dist.sh deb $(BIN) $(DIST)

dist: dist-linux windows-dist

# Windows: featurelab.exe cross-built with MinGW-w64 (cgo, for Fyne's GLFW and GL), with the
# tags and metadata of the Linux binary; where Linux links OpenBLAS and libjpeg-turbo it runs
# pure Go (gonum's BLAS and LAPACK, image/jpeg then the box filter: the windows build tag).
# Its icon and version resource: scripts/winres writes the .ico and the .rc from
# assets/icon.png and FyneApp.toml, windres compiles them into a .syso that go build links
# from the root (git ignores it); it is replaced by a rename, so that a build running beside
# this one still reads a whole file.
WINEXE := bin/featurelab.exe
WINRES := bin/winres
WINSYSO := rsrc_windows_amd64.syso
windows: setup-windows
	$(GO) run ./scripts/winres -commit '$(COMMIT)' -out $(WINRES)
	x86_64-w64-mingw32-windres -O coff -I $(WINRES) -i $(WINRES)/featurelab.rc -o $(WINRES)/$(WINSYSO)
	mv -f $(WINRES)/$(WINSYSO) $(WINSYSO)
	CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=x86_64-w64-mingw32-gcc \
		$(GO) build -tags '$(TAGS)' -ldflags '$(LDFLAGS)' -o $(WINEXE) .

# dist/featurelab-VERSION-windows-amd64.zip and its NSIS installer, -setup.exe.
windows-dist: windows setup-dist
	bash scripts/dist-windows.sh $(WINEXE) $(WINRES)/featurelab.ico $(DIST)

# featurelab.exe under Wine (a throwaway prefix in bin/wine-check) against the Linux build:
# --version, analyze on the sample and the real tabletop (same K and objective to 1e-6,
# Windows paths), encode, the window under Xvfb, the installer; each step timed.
windows-check: dist setup-windows-check
	bash scripts/dist-check.sh $(DIST) $(BIN) $(WINEXE)
	bash scripts/windows-check.sh $(WINEXE) $(BIN) $(DIST)

# What a user gets from dist: the archive's `make install` lays out a binary that runs, a
# valid .desktop and the icon; the .deb has the right control fields and files.
# The release files make test checks are packed at xz level 1: their contents and install
# are the question, and level 6 took 44 of the check's 49 s on 2 cores (scripts/dist.sh).
dist-check: export XZ_LEVEL = 1
dist-check: dist-linux
	bash scripts/dist-check.sh $(DIST) $(BIN)

# Install from the checkout, with the archive's own Makefile: system-wide (PREFIX,
# DESTDIR; sudo when PREFIX is not yours) or for this user in ~/.local.
install user-install: archive
	$(MAKE) -C $(DIST)/featurelab $@ PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)'

# Uninstalling needs no build: the three files the archive's Makefile installs.
uninstall:
	rm -f '$(DESTDIR)$(PREFIX)/bin/featurelab' '$(DESTDIR)$(PREFIX)/share/applications/$(APPID).desktop' \
		'$(DESTDIR)$(PREFIX)/share/pixmaps/$(APPID).png'

user-uninstall:
	rm -f '$(DESTDIR)$(HOME)/.local/bin/featurelab' '$(DESTDIR)$(HOME)/.local/share/applications/$(APPID).desktop' \
		'$(DESTDIR)$(HOME)/.local/share/icons/$(APPID).png'

# How soon the window shows the built-in sample, from the pixels on screen (5 launches).
first-paint: build
	bash scripts/first-paint.sh $(BIN)

# One table, so that a regression shows the day it lands: the real tabletop, the card deck,
# ORL, a 2 000-picture scene folder (internal/scenes) and 40 camera photos of 4000×3000
# upscaled from the tabletop, each analysed by the whole `featurelab analyze` process with
# the defaults and with the papers' path (--k-from widest --exposure none): wall time, peak
# RSS and K. BENCH_BASELINE=/tmp/fl-old adds an older build's columns in the same run (n/a
# where it lacks the flags); BENCH_REPEAT=3 gives the median of 3; BENCH_ONLY=tabletop,cards
# picks rows; BENCH_FOLDERS=DIR keeps the generated folders there for the next run (about a
# minute to make). Folders of ../shared/data (DATA) that are not here are skipped. A few
# minutes; not part of `make test`.
DATA ?= ../shared/data
bench: build
	$(GO) run ./scripts/benchscale -table -bin $(BIN) -data '$(DATA)' -baseline '$(BENCH_BASELINE)' \
		-repeat '$(or $(BENCH_REPEAT),1)' -only '$(BENCH_ONLY)' -folders '$(BENCH_FOLDERS)'

# The Go benchmarks of every package (go test -bench), 3 iterations each.
gobench:
	$(GO) test -run XXX -bench . -benchmem -benchtime 3x ./...

# Folders a user meets, generated in a temp folder: 2 000 and 10 000 synthetic 64×64×3
# pictures with four objects, 40 camera-sized JPEGs, 100 000 of 32×32×3. Prints each
# stage's time and peak memory, K-features' recovery of the objects, and scikit-learn's
# load + randomized PCA side by side where python3-sklearn is installed. Takes a few
# minutes; BENCH_SCALE_ONLY=2000,camera picks workloads, BENCH_SCALE_REPEAT=5 runs each
# side by side five times and gives the median ratio.
bench-scale: build
	$(GO) run ./scripts/benchscale -bin $(BIN) -only "$(BENCH_SCALE_ONLY)" -repeat "$(or $(BENCH_SCALE_REPEAT),1)"

# The segmenters side by side on the 200 BSDS500 train photos and their human maps: the
# KPYP with its defaults, then Felzenszwalb–Huttenlocher (scikit-image) and a DP Gaussian
# mixture (scikit-learn) scored by segment-eval's own metric code (--labels). The
# baselines need python3-skimage and python3-sklearn (apt); they are skipped without.
BSDS ?= ../shared/data/bsds500-train
segment-compare: build
	./$(BIN) segment-eval $(BSDS)/images $(BSDS)/groundTruth | tail -n 3
	@if /usr/bin/python3 -c 'import skimage, sklearn' 2>/dev/null; then \
		for m in felzenszwalb dpgmm; do \
			/usr/bin/python3 scripts/segcompare/baselines.py $$m $(BSDS)/images /tmp/featurelab-$$m 2>&1 | tail -n 1; \
			./$(BIN) segment-eval --labels /tmp/featurelab-$$m $(BSDS)/images $(BSDS)/groundTruth | tail -n 3; \
		done; \
	else echo "python3-skimage and python3-sklearn are not installed: no baselines"; fi

# Regenerate the built-in samples (assets/samples) and the icon from assets/samplegen.
samples:
	$(GO) generate ./assets
