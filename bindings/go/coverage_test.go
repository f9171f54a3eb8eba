package crawlsched

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// Every function declared in include/crawlsched.h is called somewhere in
// the binding (so a function added to the C API fails this test until it
// is wrapped).
func TestEveryHeaderFunctionIsWrapped(t *testing.T) {
	header, err := os.ReadFile(filepath.Join("..", "..", "include", "crawlsched.h"))
	if err != nil {
		t.Skipf("header not found from a checkout: %v", err)
	}
	decl := regexp.MustCompile(`(?m)^[a-z][a-z0-9_ *]*?\b(crawlsched_[a-z0-9_]+)\(`)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	n := 0
	for _, m := range decl.FindAllStringSubmatch(string(header), -1) {
		n++
		if !strings.Contains(src.String(), "C."+m[1]+"(") {
			t.Errorf("%s is not wrapped", m[1])
		}
	}
	if n < 100 {
		t.Errorf("only %d functions found in the header: is the pattern stale?", n)
	}
	t.Logf("%d header functions, all wrapped", n)
}

// Handles left to the garbage collector are freed by their finalizers
// (run under the race detector or ASan-enabled builds, misuse would show).
func TestFinalizers(t *testing.T) {
	for i := 0; i < 200; i++ {
		d, err := NewExponential(1)
		ok(t, err)
		s, err := NewScheduler(d, Stride)
		ok(t, err)
		ok(t, s.AddPage(1, 0.5))
		_, err = NewPoissonArrivals(1)
		ok(t, err)
	}
	runtime.GC()
	runtime.GC()
}
