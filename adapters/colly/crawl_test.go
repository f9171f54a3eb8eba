package collysched

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
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
	cmpSeconds = 60
	cmpWindows = 12
	cmpScale   = 1.0 // site seconds per wall second
)

var (
	cmpSeeds    = []int{7, 8, 9}
	cmpSiteArgs = []string{"--pages", "60", "--time-scale", "1", "--rate-min", "0.001", "--rate-max", "10"}
)

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

// pair is one seed's comparison: a site per crawler (the same seed, so
// the same change realisation), the driver, and the referees' verdicts.
type pair struct {
	seed        int
	sched, dflt *site
	tr          truth
	d           *Driver
	s, u        stats
}

func TestFresherThanCollyDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("a 60 s crawl")
	}
	pairs := make([]*pair, len(cmpSeeds))
	for k, seed := range cmpSeeds {
		args := append([]string{"--seed", strconv.Itoa(seed)}, cmpSiteArgs...)
		pairs[k] = &pair{seed: seed, sched: startSite(t, args...), dflt: startSite(t, args...)}
	}
	var wg sync.WaitGroup
	for _, p := range pairs {
		var trDefault truth
		p.sched.get(t, "/__truth", &p.tr)
		p.dflt.get(t, "/__truth", &trDefault)
		wg.Add(2)
		go func() { defer wg.Done(); p.d = crawlScheduled(t, p.tr.URLs) }()
		go func() { defer wg.Done(); crawlDefault(t, trDefault.URLs) }()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	var sw, uw []window
	for _, p := range pairs {
		defer p.d.Close()
		p.s, p.u = refereed(t, p.sched), refereed(t, p.dflt)
		checkBudget(t, fmt.Sprintf("seed %d: crawlsched", p.seed), p.s)
		checkBudget(t, fmt.Sprintf("seed %d: colly default", p.seed), p.u)
		t.Logf("seed %d: freshness crawlsched %.4f, colly default %.4f", p.seed, *p.s.Freshness, *p.u.Freshness)
		sw, uw = append(sw, p.s.Windows...), append(uw, p.u.Windows...)
	}
	diff, se := pairedWindows(sw, uw)
	t.Logf("freshness gain %.4f +- %.4f (standard error of %d paired windows of %d s)",
		diff, se, len(sw), cmpSeconds/cmpWindows)
	if !(diff > 2*se && diff > 0) {
		t.Errorf("crawlsched's freshness gain %.4f is not above 2 standard errors (%.4f)", diff, se)
	}
	checkEstimates(t, pairs)
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

// checkEstimates: the learnt rates are much closer to the true ones than
// the initial guess (Budget/pages for every page): the median
// |ln(estimate/true)| over the pages visited at least 5 times is below
// half the guess's. (Pages changing far faster than they are visited, or
// far slower than the crawl lasts, are known only to within a bound.)
func checkEstimates(t *testing.T, pairs []*pair) {
	var errEst, errGuess []float64
	n := 0
	for _, p := range pairs {
		pages, err := p.d.Pages()
		if err != nil {
			t.Fatal(err)
		}
		guess := cmpBudget / float64(len(p.tr.URLs))
		for i, pg := range pages {
			if pg.URL != p.tr.URLs[i] {
				t.Fatalf("page %d is %s, want %s", i, pg.URL, p.tr.URLs[i])
			}
			n++
			if pg.Visits < 5 {
				continue
			}
			mu := p.tr.Rates[i] * p.tr.TimeScale // per wall second
			errEst = append(errEst, math.Abs(math.Log(pg.ChangeRate/mu)))
			errGuess = append(errGuess, math.Abs(math.Log(guess/mu)))
		}
	}
	me, mg := median(errEst), median(errGuess)
	t.Logf("rates: median |ln(estimate/true)| %.3f over %d pages, initial guess %.3f", me, len(errEst), mg)
	if len(errEst) < n/2 || !(me < 0.5*mg) {
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

// TestHostDelayOnSite: three hosts with a 200 ms delay each cap the crawl
// at 15 requests per second under a budget of 30. The driver dispatches a
// host's requests at least the delay apart (the scheduler's guarantee,
// tested over 10^6 picks in the library); the site sees them after
// transport and goroutine jitter, which on a loaded 2-core machine has
// reached 70 ms, so its smallest gap is checked against half the delay and
// the rate against the cap.
func TestHostDelayOnSite(t *testing.T) {
	s := startSite(t, "--pages", "30", "--hosts", "3", "--seed", "3")
	var tr truth
	s.get(t, "/__truth", &tr)
	c := colly.NewCollector()
	d, err := New(c, Options{Budget: 30, Duration: 3 * time.Second, HostDelay: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, u := range tr.URLs {
		if err := d.AddURL(u); err != nil {
			t.Fatal(err)
		}
	}
	q, err := queue.New(2, d)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Run(c); err != nil {
		t.Fatal(err)
	}
	st := s.stats(t, 0, 0)
	total := 0
	for host, h := range st.Hosts {
		total += h.Requests
		t.Logf("host %s: %d requests, smallest gap %.3f s", host, h.Requests, *h.MinGap)
		if h.Requests < 10 || *h.MinGap < 0.1 {
			t.Errorf("host %s: %d requests, smallest gap %.3f s; want >= 10, at least 100 ms apart at the site",
				host, h.Requests, *h.MinGap)
		}
	}
	if len(st.Hosts) != 3 || total > 3*16 {
		t.Errorf("%d hosts, %d requests in 3 s; want 3 hosts at most 5 per second each", len(st.Hosts), total)
	}
}

// TestDiscovery: seeded with the site's index only, the driver schedules
// the pages Colly finds through the queue, and revisits them all (pages
// found one by one once got guesses Budget/pages of 50, 25, 16.7, ...: the
// first ones, far above the rest, were never fetched).
func TestDiscovery(t *testing.T) {
	s := startSite(t, "--pages", "30", "--seed", "4")
	c := colly.NewCollector()
	d, err := New(c, Options{Budget: 50, MaxRequests: 150})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	q, err := queue.New(1, d)
	if err != nil {
		t.Fatal(err)
	}
	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		if err := q.AddURL(e.Request.AbsoluteURL(e.Attr("href"))); err != nil {
			t.Error(err)
		}
	})
	if err := q.AddURL(s.base + "/"); err != nil {
		t.Fatal(err)
	}
	if err := q.Run(c); err != nil {
		t.Fatal(err)
	}
	pages, err := d.Pages()
	if err != nil {
		t.Fatal(err)
	}
	st := s.stats(t, 0, 0)
	least := st.FetchCounts[0]
	for _, n := range st.FetchCounts {
		least = min(least, n)
	}
	t.Logf("fetches per page %v", st.FetchCounts)
	if len(pages) != 31 || least < 2 || st.Fetches+1 > 150 {
		t.Errorf("%d pages (want the index and 30), %d page fetches, fewest per page %d (want >= 2)",
			len(pages), st.Fetches, least)
	}
}
