# skytui — the two commands a new user needs: `make run` and `make test`.
GO       ?= go
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X main.version=$(VERSION)
BIN      ?= bin/skytui

.PHONY: run test build install vet fmt fmt-check deps bench fuzz clean

## run: start skytui on the embedded sandbox (no account needed)
run:
	$(GO) run . --demo

## test: every test, with the race detector
test:
	$(GO) test -race -count=1 ./...

## build: build bin/skytui
build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) .

## install: install skytui into $(GOBIN) or ~/go/bin
install:
	$(GO) install -trimpath -ldflags '$(LDFLAGS)' .

## vet: go vet
vet:
	$(GO) vet ./...

## fmt: format the code
fmt:
	gofmt -w $$(git ls-files '*.go')

## fmt-check: fail if any file needs gofmt
fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## deps: install what the end-to-end tests use (Debian: tmux, gnome-keyring, MariaDB); needs root
deps:
	sh .ci/install-deps

## fuzz: run every fuzz target briefly (FUZZTIME=10s each)
fuzz:
	sh .ci/fuzz

## bench: Go benchmarks, then skytui beside `watch curl | jq` in pseudo-terminals (needs watch, curl, jq)
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
	$(GO) run ./bench -idle $${BENCH_IDLE:-60s}

clean:
	rm -rf bin
