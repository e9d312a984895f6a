// Package openapispec finds and loads the live service's published OpenAPI
// description for tests, and finds the operation a request path belongs to.
//
// The description lives beside the project (../shared/reference from the
// repository root), on developers' machines and in CI but not on users'
// machines. It is never copied into the repository.
package openapispec

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"

	"github.com/skytui/skytui/internal/pathtmpl"
)

// RelPath is where the description lives, relative to the repository root.
var RelPath = filepath.Join("..", "shared", "reference", "skysql-openapi.yaml")

// Path returns the description's path, found from the working directory up
// to the repository root (the directory holding go.mod). It does not check
// that the file exists.
func Path() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, RelPath), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("repository root (go.mod) not found above the working directory")
		}
		dir = parent
	}
}

var (
	mu    sync.Mutex
	cache = map[string]*openapi3.T{}
)

// Load returns the loaded description. When the file is absent the test is
// skipped with a message saying where it was looked for, except in CI
// (CI=true), where it fails. A description that does not load fails the
// test. The document is loaded once per test binary and shared: callers must
// not change it.
func Load(tb testing.TB) *openapi3.T {
	tb.Helper()
	p, err := Path()
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("OpenAPI description missing in CI: %v", err)
		}
		tb.Skipf("OpenAPI description not found at %s (it lives beside the project, not in it): %v", p, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if doc, ok := cache[p]; ok {
		return doc
	}
	doc, err := openapi3.NewLoader().LoadFromFile(p)
	if err != nil {
		tb.Fatalf("load %s: %v", p, err)
	}
	cache[p] = doc
	return doc
}

// Find returns the route of the description that a request path (with or
// without its query) belongs to, and the path parameters' values. Of several
// matching templates the one with the most literal segments wins
// (/backups/schedules over /backups/{service_id}; of equals, the first by
// name). It returns nil when no
// path matches; the route's Operation is nil when the path exists but has no
// operation for the method.
func Find(doc *openapi3.T, method, path string) (*routers.Route, map[string]string) {
	p, _, _ := strings.Cut(path, "?")
	tmpl, params, ok := pathtmpl.Best(p, slices.Sorted(maps.Keys(doc.Paths.Map())), pathtmpl.Parse)
	if !ok {
		return nil, nil
	}
	item := doc.Paths.Value(tmpl)
	return &routers.Route{Spec: doc, Path: tmpl, PathItem: item, Method: method, Operation: item.GetOperation(method)}, params
}
