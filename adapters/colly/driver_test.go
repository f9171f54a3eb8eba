package collysched

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	crawlsched "github.com/crawlsched/crawlsched/bindings/go"
	"github.com/gocolly/colly/v2"
	"github.com/gocolly/colly/v2/queue"
)

// testServer serves /changing (new body on every request, no validators),
// /etag (constant, with an ETag: 304 when it matches) and /static
// (constant, no validators), and logs each request's time by path.
type testServer struct {
	*httptest.Server
	mu   sync.Mutex
	n    int
	log  map[string][]time.Time
	ctxs []string
}

func newTestServer(t *testing.T) *testServer {
	s := &testServer{log: map[string][]time.Time{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.n++
		n := s.n
		s.log[r.URL.Path] = append(s.log[r.URL.Path], time.Now())
		s.mu.Unlock()
		switch r.URL.Path {
		case "/changing":
			fmt.Fprintf(w, "<html>version %d</html>", n)
		case "/etag":
			w.Header().Set("ETag", `"v1"`)
			if r.Header.Get("If-None-Match") == `"v1"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			fmt.Fprint(w, "<html>constant</html>")
		case "/static":
			fmt.Fprint(w, "<html>static</html>")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *testServer) gaps(path string) (minGap time.Duration, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ts := s.log[path]
	minGap = time.Hour
	for i := 1; i < len(ts); i++ {
		minGap = min(minGap, ts[i].Sub(ts[i-1]))
	}
	return minGap, len(ts)
}

// run crawls urls through a new driver with opts (and state, if any).
func run(t *testing.T, opts Options, state []byte, urls ...string) *Driver {
	t.Helper()
	c := colly.NewCollector()
	d, err := New(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if state != nil {
		if err := d.Load(bytes.NewReader(state)); err != nil {
			t.Fatal(err)
		}
	}
	q, err := queue.New(1, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range urls {
		if err := q.AddURL(u); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Run(c); err != nil {
		t.Fatal(err)
	}
	if err := d.Err(); err != nil {
		t.Fatal(err)
	}
	return d
}

func byURL(t *testing.T, d *Driver) map[string]PageState {
	t.Helper()
	pages, err := d.Pages()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]PageState{}
	for _, p := range pages {
		out[p.URL] = p
	}
	return out
}

func TestChangeDetection(t *testing.T) {
	s := newTestServer(t)
	changing, etag, static := s.URL+"/changing", s.URL+"/etag", s.URL+"/static"
	d := run(t, Options{Budget: 200, MaxRequests: 60}, nil, changing, etag, static, changing)
	st := d.Stats()
	if st.Requests != 60 || st.Responses != 60 || st.Errors != 0 {
		t.Fatalf("stats %+v, want 60 requests and responses", st)
	}
	p := byURL(t, d)
	if len(p) != 3 {
		t.Fatalf("%d pages, want 3 (a URL added twice is one page)", len(p))
	}
	if p[changing].Visits < 2 || p[changing].Changes != p[changing].Visits-1 {
		t.Errorf("changing: %+v, want a change at every revisit", p[changing])
	}
	if p[etag].Changes != 0 || p[static].Changes != 0 {
		t.Errorf("constant pages changed: %+v %+v", p[etag], p[static])
	}
	if st.NotModified != p[etag].Visits-1 {
		t.Errorf("%d not modified, want every revisit of /etag (%d)", st.NotModified, p[etag].Visits-1)
	}
	if !(p[changing].ChangeRate > 10*p[static].ChangeRate && p[changing].ChangeRate > 10*p[etag].ChangeRate) {
		t.Errorf("rates: changing %g, etag %g, static %g", p[changing].ChangeRate, p[etag].ChangeRate,
			p[static].ChangeRate)
	}
}

func TestBudget(t *testing.T) {
	s := newTestServer(t)
	start := time.Now()
	d := run(t, Options{Budget: 50, MaxRequests: 26}, nil, s.URL+"/static")
	if got := d.Stats().Requests; got != 26 {
		t.Errorf("%d requests, want MaxRequests 26", got)
	}
	// 26 requests at 50 per second: 25 gaps of 20 ms.
	if el := time.Since(start); el < 500*time.Millisecond {
		t.Errorf("26 requests in %v, budget 50/s allows no less than 500 ms", el)
	}
	if g, n := s.gaps("/static"); n != 26 || g < 10*time.Millisecond {
		t.Errorf("%d requests, smallest gap %v; want 26, 20 ms apart when they leave", n, g)
	}

	s2 := newTestServer(t)
	start = time.Now()
	run(t, Options{Budget: 100, Duration: 300 * time.Millisecond}, nil, s2.URL+"/static")
	if _, n := s2.gaps("/static"); n > 31 || time.Since(start) > 2*time.Second {
		t.Errorf("%d requests in %v for a 300 ms crawl at 100/s", n, time.Since(start))
	}
}

func TestHostDelay(t *testing.T) {
	a, b := newTestServer(t), newTestServer(t)
	start := time.Now()
	run(t, Options{Budget: 100, MaxRequests: 12, HostDelay: 100 * time.Millisecond}, nil,
		a.URL+"/static", a.URL+"/changing", b.URL+"/static")
	for _, s := range []*testServer{a, b} {
		s.mu.Lock()
		var all []time.Time
		for _, ts := range s.log {
			all = append(all, ts...)
		}
		s.mu.Unlock()
		for i := range all {
			for j := range all {
				if gap := all[j].Sub(all[i]); i != j && gap >= 0 && gap < 90*time.Millisecond {
					t.Fatalf("two requests to one host %v apart, HostDelay 100 ms", gap)
				}
			}
		}
	}
	// Two hosts at 10 per second each: 12 requests need at least 0.5 s.
	if el := time.Since(start); el < 450*time.Millisecond {
		t.Errorf("12 requests over two hosts in %v", el)
	}
}

func TestSaveLoad(t *testing.T) {
	s := newTestServer(t)
	changing, static := s.URL+"/changing", s.URL+"/static"
	d := run(t, Options{Budget: 200, MaxRequests: 20}, nil, changing, static)
	var buf bytes.Buffer
	if err := d.Save(&buf); err != nil {
		t.Fatal(err)
	}
	before := byURL(t, d)

	c := colly.NewCollector()
	d2, err := New(c, Options{Budget: 200, MaxRequests: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	if err := d2.Load(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatal(err)
	}
	loaded := byURL(t, d2)
	for u, p := range before {
		if loaded[u] != p {
			t.Errorf("loaded %+v, saved %+v", loaded[u], p)
		}
	}
	// The next run goes on from the saved digests: /static is unchanged.
	d3 := run(t, Options{Budget: 200, MaxRequests: 4}, buf.Bytes())
	after := byURL(t, d3)
	if after[static].Changes != 0 || after[static].Visits <= before[static].Visits {
		t.Errorf("static after reload: %+v (before %+v)", after[static], before[static])
	}
	if after[changing].Changes <= before[changing].Changes {
		t.Errorf("changing after reload: %+v (before %+v)", after[changing], before[changing])
	}
}

func TestOptionErrors(t *testing.T) {
	for _, o := range []Options{{}, {Budget: -1}, {Budget: 1, MaxRequests: -1}, {Budget: 1, HostDelay: -1}} {
		if _, err := New(colly.NewCollector(), o); err == nil {
			t.Errorf("New(%+v) accepted", o)
		}
	}
}

// TestStateContinuesExactly: a page's estimator state saved and loaded
// gives the same estimate bit for bit and the same result for every later
// visit as the run that did not stop; the state is within the bound.
func TestStateContinuesExactly(t *testing.T) {
	s := newTestServer(t)
	d := run(t, Options{Budget: 200, MaxRequests: 30}, nil, s.URL+"/changing", s.URL+"/static")
	var buf bytes.Buffer
	if err := d.Save(&buf); err != nil {
		t.Fatal(err)
	}
	var st savedState
	if err := json.Unmarshal(buf.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	for _, sp := range st.Pages {
		e, err := crawlsched.NewEstimatorFromStateText(sp.Estimator)
		if err != nil {
			t.Fatalf("%s: %v", sp.URL, err)
		}
		raw, _ := e.State()
		if n, _ := e.Observations(); len(raw) > crawlsched.EstimatorStateMaxBytes || n != uint64(sp.Visits-1) {
			t.Errorf("%s: state of %d bytes, %d observations, %d visits", sp.URL, len(raw), n, sp.Visits)
		}
		e.Close()
	}

	d2, err := New(colly.NewCollector(), Options{Budget: 200})
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	if err := d2.Load(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatal(err)
	}
	d2.mu.Lock()
	err = d2.begin(time.Now()) // the pages enter the scheduler, importing their states
	d2.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	for id := range st.Pages {
		pid := uint64(id)
		for k := 0; k < 20; k++ {
			a, _ := d.sched.PageState(pid)
			b, _ := d2.sched.PageState(pid)
			ra, _ := d.sched.ChangeRate(pid)
			rb, _ := d2.sched.ChangeRate(pid)
			if !bytes.Equal(a, b) || ra != rb {
				t.Fatalf("page %d after %d more visits: rate %v vs %v (restored)", id, k, ra, rb)
			}
			interval, changed := 0.3+0.17*float64(k), k%3 == 0
			if err := d.sched.Observe(pid, interval, changed); err != nil {
				t.Fatal(err)
			}
			if err := d2.sched.Observe(pid, interval, changed); err != nil {
				t.Fatal(err)
			}
		}
	}
	bad := bytes.Replace(buf.Bytes(), []byte(`"estimator": "`), []byte(`"estimator": "x`), 1)
	d3, _ := New(colly.NewCollector(), Options{Budget: 200})
	defer d3.Close()
	if err := d3.Load(bytes.NewReader(bad)); err == nil {
		t.Error("Load accepted a damaged estimator state")
	}
}
