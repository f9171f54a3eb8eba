package collysched

import (
	"errors"
	"math"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/gocolly/colly/v2"
	"github.com/gocolly/colly/v2/queue"
)

// The comparison: the same site (seed), budget and duration, crawled by
// Colly through the Driver and by Colly's own way of revisiting (the
// in-memory FIFO queue, each page re-queued after its fetch: round robin).
const (
	cmpPages   = 60
	cmpBudget  = 20.0 // requests per second
	cmpSeconds = 40
	cmpWindows = 8
	cmpScale   = 1.0 // site seconds per wall second
)

var cmpSiteArgs = []string{"--pages", "60", "--seed", "7", "--time-scale", "1",
	"--rate-min", "0.005", "--rate-max", "2"}

// roundRobin is Colly's in-memory queue storage with the budget's pacing
// and the crawl's end: the default revisiting at the same request rate.
type roundRobin struct {
	queue.InMemoryQueueStorage
	pace *pacer
	mu   sync.Mutex
	end  time.Time // zero before the first request
	dur  time.Duration
}

func (r *roundRobin) over(now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.end.IsZero() {
		r.end = now.Add(r.dur)
	}
	return !now.Before(r.end)
}

func (r *roundRobin) QueueSize() (int, error) {
	r.mu.Lock()
	done := !r.end.IsZero() && !time.Now().Before(r.end)
	r.mu.Unlock()
	if done {
		return 0, nil
	}
	return r.InMemoryQueueStorage.QueueSize()
}

func (r *roundRobin) GetRequest() ([]byte, error) {
	if r.over(r.pace.wait()) {
		return nil, errors.New("the crawl is over")
	}
	return r.InMemoryQueueStorage.GetRequest()
}

func crawlDefault(t *testing.T, urls []string) {
	c := colly.NewCollector(colly.AllowURLRevisit())
	s := &roundRobin{pace: newPacer(cmpBudget), dur: cmpSeconds * time.Second}
	q, err := queue.New(1, s)
	if err != nil {
		t.Error(err)
		return
	}
	requeue := func(r *colly.Response) {
		if err := q.AddRequest(r.Request); err != nil {
			t.Error(err)
		}
	}
	c.OnScraped(requeue)
	c.OnError(func(r *colly.Response, err error) { requeue(r) })
	for _, u := range urls {
		if err := q.AddURL(u); err != nil {
			t.Error(err)
		}
	}
	if err := q.Run(c); err != nil {
		t.Error(err)
	}
}

func crawlScheduled(t *testing.T, urls []string) *Driver {
	c := colly.NewCollector()
	d, err := New(c, Options{Budget: cmpBudget, Duration: cmpSeconds * time.Second})
	if err != nil {
		t.Error(err)
		return nil
	}
	q, err := queue.New(1, d)
	if err != nil {
		t.Error(err)
		return nil
	}
	for _, u := range urls {
		if err := q.AddURL(u); err != nil {
			t.Error(err)
		}
	}
	if err := q.Run(c); err != nil {
		t.Error(err)
	}
	if err := d.Err(); err != nil {
		t.Error(err)
	}
	return d
}

func TestFresherThanCollyDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("a 40 s crawl")
	}
	sched, dflt := startSite(t, cmpSiteArgs...), startSite(t, cmpSiteArgs...)
	var tr, trDefault truth
	sched.get(t, "/__truth", &tr)
	dflt.get(t, "/__truth", &trDefault)

	var wg sync.WaitGroup
	var d *Driver
	wg.Add(2)
	go func() { defer wg.Done(); d = crawlScheduled(t, tr.URLs) }()
	go func() { defer wg.Done(); crawlDefault(t, trDefault.URLs) }()
	wg.Wait()
	if t.Failed() {
		return
	}
	defer d.Close()

	t.Logf("driver: %+v", d.Stats())
	s, u := refereed(t, sched), refereed(t, dflt)
	checkBudget(t, "crawlsched", s)
	checkBudget(t, "colly default", u)
	diff, se := pairedWindows(s.Windows, u.Windows)
	t.Logf("freshness: crawlsched %.4f, colly default %.4f (%d requests each at most); "+
		"window differences %.4f +- %.4f (standard error, %d windows)",
		*s.Freshness, *u.Freshness, int(cmpBudget*cmpSeconds), diff, se, len(s.Windows))
	if !(diff > 2*se && diff > 0) {
		t.Errorf("crawlsched's freshness gain %.4f is not above 2 standard errors (%.4f)", diff, se)
	}
	checkEstimates(t, d, tr)
}

// refereed is the site's freshness over the crawl's span, in windows.
func refereed(t *testing.T, s *site) stats {
	first := s.stats(t, 0, 0)
	if first.Start == nil {
		t.Fatal("the site saw no fetch")
	}
	return s.stats(t, *first.Start+cmpSeconds*cmpScale, cmpWindows)
}

// checkBudget: no more requests than the budget allows in the duration,
// at most the budget's rate over the run (1% for the span's ends) and in
// any one second (10% + 1 for the jitter between sending and the site's
// clock: the pacer spaces requests 1/Budget apart when they leave).
func checkBudget(t *testing.T, name string, st stats) {
	h, ok := st.Hosts["127.0.0.1"]
	if !ok || h.PerSecond == nil {
		t.Fatalf("%s: no host statistics: %+v", name, st.Hosts)
	}
	t.Logf("%s: %d requests (%d not modified), %.2f per second, at most %d in one second",
		name, h.Requests, st.NotModified, *h.PerSecond, h.MaxInOneSecond)
	if limit := int(cmpBudget*cmpSeconds) + 1; h.Requests > limit {
		t.Errorf("%s: %d requests, budget %d", name, h.Requests, limit)
	}
	if *h.PerSecond > cmpBudget*1.01 || float64(h.MaxInOneSecond) > 1.1*cmpBudget+1 {
		t.Errorf("%s: %.3f per second, %d in one second: over the budget of %g",
			name, *h.PerSecond, h.MaxInOneSecond, cmpBudget)
	}
	if h.Requests < int(cmpBudget*cmpSeconds*0.9) {
		t.Errorf("%s: only %d requests of %d", name, h.Requests, int(cmpBudget*cmpSeconds))
	}
}

// pairedWindows is the mean of the per-window freshness differences a-b
// and its standard error (batch means).
func pairedWindows(a, b []window) (mean, se float64) {
	n := min(len(a), len(b))
	d := make([]float64, n)
	for i := range d {
		d[i] = a[i].Freshness - b[i].Freshness
		mean += d[i]
	}
	mean /= float64(n)
	var ss float64
	for _, x := range d {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(n-1) / float64(n))
}

// checkEstimates: the learnt rates are closer to the true ones than the
// initial guess (Budget/pages for every page), measured by the median
// |ln(estimate/true)| over the pages visited at least 5 times.
func checkEstimates(t *testing.T, d *Driver, tr truth) {
	pages, err := d.Pages()
	if err != nil {
		t.Fatal(err)
	}
	guess := cmpBudget / float64(len(tr.URLs))
	var errEst, errGuess []float64
	for i, p := range pages {
		if p.URL != tr.URLs[i] {
			t.Fatalf("page %d is %s, want %s", i, p.URL, tr.URLs[i])
		}
		if p.Visits < 5 {
			continue
		}
		mu := tr.Rates[i] * tr.TimeScale // per wall second
		errEst = append(errEst, math.Abs(math.Log(p.ChangeRate/mu)))
		errGuess = append(errGuess, math.Abs(math.Log(guess/mu)))
	}
	me, mg := median(errEst), median(errGuess)
	t.Logf("rates: median |ln(estimate/true)| %.3f over %d pages, initial guess %.3f", me, len(errEst), mg)
	if len(errEst) < len(pages)/2 || !(me < 0.5*mg) || !(me < math.Ln2) {
		t.Errorf("estimates not near the true rates: median log error %.3f (guess %.3f) over %d pages",
			me, mg, len(errEst))
	}
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return s[len(s)/2]
}
