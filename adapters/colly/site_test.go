package collysched

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// site is a running adapters/testsite/site.py.
type site struct {
	base string // http://127.0.0.1:PORT
}

// startSite runs the shared test site with args; it is killed at the end
// of the test. CRAWLSCHED_TESTSITE overrides the script's path.
func startSite(t *testing.T, args ...string) *site {
	t.Helper()
	script := os.Getenv("CRAWLSCHED_TESTSITE")
	if script == "" {
		script = filepath.Join("..", "testsite", "site.py")
	}
	cmd := exec.Command("python3", append([]string{script}, args...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", script, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	ready := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		ready <- line
	}()
	select {
	case line := <-ready:
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "READY" {
			t.Fatalf("site said %q, want READY <url>", line)
		}
		return &site{base: strings.TrimSuffix(f[1], "/")}
	case <-time.After(20 * time.Second):
		t.Fatal("site not ready after 20 s")
	}
	return nil
}

func (s *site) get(t *testing.T, path string, v any) {
	t.Helper()
	resp, err := http.Get(s.base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", path, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
}

type truth struct {
	TimeScale float64   `json:"time_scale"`
	URLs      []string  `json:"urls"`
	Rates     []float64 `json:"rates"`
}

type window struct {
	Start     float64 `json:"start"`
	End       float64 `json:"end"`
	Freshness float64 `json:"freshness"`
}

type hostStats struct {
	Requests       int      `json:"requests"`
	WallSpan       float64  `json:"wall_span"`
	PerSecond      *float64 `json:"per_second"`
	MaxInOneSecond int      `json:"max_in_one_second"`
	MinGap         *float64 `json:"min_gap"`
}

type stats struct {
	Start       *float64             `json:"start"`
	End         float64              `json:"end"`
	Fetches     int                  `json:"fetches"`
	NotModified int                  `json:"not_modified"`
	Freshness   *float64             `json:"freshness"`
	FetchCounts []int                `json:"fetch_counts"`
	Hosts       map[string]hostStats `json:"hosts"`
	Windows     []window             `json:"windows"`
}

// stats is the site's referee over the site-time span [start, end] in
// windows equal windows (end 0: now).
func (s *site) stats(t *testing.T, end float64, windows int) stats {
	t.Helper()
	q := fmt.Sprintf("/__stats?windows=%d", windows)
	if end > 0 {
		q += fmt.Sprintf("&end=%g", end)
	}
	var st stats
	s.get(t, q, &st)
	return st
}
