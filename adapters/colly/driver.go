// Package collysched puts crawlsched's streaming Scheduler behind Colly's
// queue: a Driver is a queue.Storage (github.com/gocolly/colly/v2/queue)
// whose GetRequest is the scheduler's next page instead of the next item
// of a FIFO, paced to a request budget. Requests added to the queue become
// pages (one per URL; later adds of the same URL are no-ops, revisits are
// the scheduler's), each response is compared with the previous one of
// its page (content digest; 304 Not Modified when the conditional
// validators match) and reported to the scheduler, whose per-page
// estimators learn the change rates and move the frequencies.
//
// Time is wall-clock seconds: change rates are per second, the budget is
// requests per second.
package collysched

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"sync"
	"time"

	crawlsched "github.com/crawlsched/crawlsched/bindings/go"
	"github.com/gocolly/colly/v2"
	"github.com/gocolly/colly/v2/queue"
)

var _ queue.Storage = (*Driver)(nil)

// CtxPage is the request-context key under which the driver stores the
// page id of each request it issues (a decimal string).
const CtxPage = "crawlsched_page"

// Options configure a Driver. Budget is required.
type Options struct {
	// Budget is the request rate, requests per second (> 0): requests
	// leave at least 1/Budget apart, never in bursts.
	Budget float64
	// MaxRequests ends the crawl after this many requests (0: no bound).
	MaxRequests int
	// Duration ends the crawl this long after its first request (0: no
	// bound).
	Duration time.Duration
	// CrawlTime is the distribution of one request's duration in seconds,
	// the scheduler's access-time model (nil: each takes 1/Budget). The
	// driver copies it.
	CrawlTime *crawlsched.Dist
	// Mode is the scheduler's accessing policy (default Stride, which
	// re-plans after every len(pages) requests once estimates moved).
	Mode crawlsched.SchedulerMode
	// InitialRate is a new page's change-rate guess per second, the prior
	// of its estimator (0: Budget / number of pages for the pages added
	// before the crawl starts, one change per round-robin sweep; the median
	// of the current estimates for pages found during the crawl).
	InitialRate float64
	// Weight is a page's importance (nil: every page weighs 1, which
	// maximises the fraction of fresh pages).
	Weight func(url string) float64
	// HostDelay is the minimum time between two requests to one host
	// (0: none); the scheduler plans around it rather than waiting.
	HostDelay time.Duration
	// NoConditional turns off If-None-Match / If-Modified-Since requests.
	NoConditional bool
	// Digest is the content a change is judged by (nil: SHA-256 of the
	// body). Return e.g. the hash of the main text to ignore ads and dates.
	Digest func(*colly.Response) []byte
}

// Stats count what the driver saw.
type Stats struct {
	Requests    int // requests issued
	Responses   int // 2xx and 304 responses
	NotModified int // 304 responses
	Changes     int // revisits that found the page changed
	Errors      int // failed requests (no observation recorded)
}

// Driver is a Colly queue.Storage scheduled by crawlsched. Safe for
// concurrent use (Colly's queue calls it from several goroutines).
type Driver struct {
	opts   Options
	pace   *pacer
	sched  *crawlsched.Scheduler
	mu     sync.Mutex
	pages  []*page
	byURL  map[string]uint64
	hosts  map[string]uint32
	start  time.Time // first request; zero before
	stats  Stats
	err    error
	closed bool
	// The median change rate of the scheduled pages (the guess for pages
	// found during the crawl) and the request count when it was computed.
	typical   float64
	typicalAt int
}

type page struct {
	req     wireRequest
	host    string
	visited time.Time // last response; zero: never
	digest  []byte
	etag    string
	lastMod string
	visits  int
	changes int
	added   bool    // known to the scheduler (pages before the first pick wait)
	guess   float64 // change-rate guess from Load (0: the default)
	state   string  // estimator state text from Load, imported when the page enters the scheduler
}

// wireRequest has the fields of colly's serialised Request (its JSON).
type wireRequest struct {
	URL     string
	Method  string
	Depth   int
	Body    []byte
	ID      uint32
	Ctx     map[string]interface{}
	Headers http.Header
	Host    string
}

// New is a driver for collector c: it allows URL revisits on c and hooks
// c's OnResponse and OnError to observe every page it fetches. Use it as
// the storage of a Colly queue (queue.New(threads, driver)) and Close it
// after the crawl.
func New(c *colly.Collector, opts Options) (*Driver, error) {
	if !(opts.Budget > 0) {
		return nil, fmt.Errorf("collysched: Budget must be > 0 requests per second, got %v", opts.Budget)
	}
	if opts.InitialRate < 0 || opts.MaxRequests < 0 || opts.Duration < 0 || opts.HostDelay < 0 {
		return nil, errors.New("collysched: InitialRate, MaxRequests, Duration and HostDelay must be >= 0")
	}
	access := opts.CrawlTime
	if access == nil {
		d, err := crawlsched.NewDeterministic(1 / opts.Budget)
		if err != nil {
			return nil, err
		}
		defer d.Close()
		access = d
	}
	sched, err := crawlsched.NewScheduler(access, opts.Mode)
	if err != nil {
		return nil, err
	}
	d := &Driver{opts: opts, pace: newPacer(opts.Budget), sched: sched,
		byURL: map[string]uint64{}, hosts: map[string]uint32{}}
	c.AllowURLRevisit = true
	c.OnResponse(d.onResponse)
	c.OnError(d.onError)
	return d, nil
}

// Close frees the scheduler; QueueSize is 0 afterwards.
func (d *Driver) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	return d.sched.Close()
}

// Err is the first scheduler error, which ended the crawl (nil if none).
func (d *Driver) Err() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}

// Stats is a copy of the counters.
func (d *Driver) Stats() Stats {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.stats
}

// AddURL adds a GET page (as queue.Queue.AddURL, without a queue).
func (d *Driver) AddURL(rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	_, err = d.add(wireRequest{URL: u.String(), Method: http.MethodGet})
	return err
}

// Init implements queue.Storage.
func (d *Driver) Init() error { return nil }

// AddRequest implements queue.Storage: a request for a new URL adds a page,
// one for a known URL is dropped (the schedule decides revisits).
func (d *Driver) AddRequest(b []byte) error {
	var r wireRequest
	if err := json.Unmarshal(b, &r); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	_, err := d.add(r)
	return err
}

// QueueSize implements queue.Storage: the number of pages while the crawl
// goes on, 0 once it is over (budget of requests or time spent, an error,
// Close), which ends queue.Run.
func (d *Driver) QueueSize() (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.over(time.Now()) {
		return 0, nil
	}
	return len(d.pages), nil
}

// GetRequest implements queue.Storage: waits for the next request slot of
// the budget (and, with HostDelay, until some host may be visited) and
// returns the scheduler's next page as a serialised colly request.
func (d *Driver) GetRequest() ([]byte, error) {
	slot := d.pace.wait()
	for {
		d.mu.Lock()
		if d.over(slot) {
			d.mu.Unlock()
			return nil, errors.New("collysched: the crawl is over")
		}
		b, wait, err := d.pick(slot)
		d.mu.Unlock()
		if err != nil || wait == 0 {
			return b, err
		}
		time.Sleep(wait)
		slot = time.Now()
	}
}

// over says whether the crawl has ended by time now. Caller holds mu.
func (d *Driver) over(now time.Time) bool {
	o := d.opts
	return d.closed || d.err != nil ||
		(o.MaxRequests > 0 && d.stats.Requests >= o.MaxRequests) ||
		(o.Duration > 0 && !d.start.IsZero() && now.Sub(d.start) >= o.Duration)
}

// add registers request r as a page and returns it; a known URL is not
// added again (its page is returned). Caller holds mu.
func (d *Driver) add(r wireRequest) (*page, error) {
	u, err := url.Parse(r.URL)
	if err != nil {
		return nil, err
	}
	if r.Method == "" {
		r.Method = http.MethodGet
	}
	key := r.Method + " " + u.String()
	if id, ok := d.byURL[key]; ok {
		return d.pages[id], nil
	}
	id := uint64(len(d.pages))
	p := &page{req: r, host: u.Host}
	d.pages = append(d.pages, p)
	d.byURL[key] = id
	if d.start.IsZero() {
		return p, nil // added in one batch at the first pick (see begin)
	}
	return p, d.schedule([]uint64{id})
}

// initialRate is a new page's change-rate guess: InitialRate, or at the
// start Budget/pages (one change per round-robin sweep), and for a page
// found during the crawl the median of the scheduled pages' current rates:
// a guess far above the others would get the page no visit at all under
// the freshness optimum, so it would never be corrected. The median is
// recomputed after every len(pages) requests. Caller holds mu.
func (d *Driver) initialRate() (float64, error) {
	if d.opts.InitialRate > 0 {
		return d.opts.InitialRate, nil
	}
	if d.typical > 0 && d.stats.Requests < d.typicalAt+len(d.pages) {
		return d.typical, nil
	}
	rates := make([]float64, 0, len(d.pages))
	for id, p := range d.pages {
		if p.added {
			r, err := d.sched.ChangeRate(uint64(id))
			if err != nil {
				return 0, err
			}
			rates = append(rates, r)
		}
	}
	if len(rates) == 0 {
		return d.opts.Budget / float64(max(len(d.pages), 1)), nil
	}
	sort.Float64s(rates)
	d.typical, d.typicalAt = rates[len(rates)/2], d.stats.Requests
	return d.typical, nil
}

// schedule adds pages ids to the scheduler with their change-rate
// guesses (and their hosts' delays). Caller holds mu.
func (d *Driver) schedule(ids []uint64) error {
	guess, err := d.initialRate()
	if err != nil {
		return err
	}
	rates := make([]float64, len(ids))
	weights := make([]float64, len(ids))
	for k, id := range ids {
		rates[k], weights[k] = guess, 1
		if g := d.pages[id].guess; g > 0 {
			rates[k] = g
		}
		if d.opts.Weight != nil {
			weights[k] = d.opts.Weight(d.pages[id].req.URL)
		}
	}
	if err := d.sched.AddPages(ids, rates, weights); err != nil {
		return err
	}
	for _, id := range ids {
		p := d.pages[id]
		p.added = true
		if p.state != "" {
			if err := d.sched.SetPageStateText(id, p.state); err != nil {
				return fmt.Errorf("collysched: page %s: saved estimator state: %w", p.req.URL, err)
			}
			p.state = ""
		}
		if d.opts.HostDelay > 0 {
			if err := d.setHost(id); err != nil {
				return err
			}
		}
	}
	return nil
}

// setHost puts page id on its host's delay group. Caller holds mu.
func (d *Driver) setHost(id uint64) error {
	name := d.pages[id].host
	h, ok := d.hosts[name]
	if !ok {
		h = uint32(len(d.hosts))
		d.hosts[name] = h
		if err := d.sched.SetHostDelay(h, d.opts.HostDelay.Seconds()); err != nil {
			return err
		}
	}
	return d.sched.SetHost(id, h)
}

// begin starts the crawl at the first pick: the pages added so far enter
// the scheduler at once. Caller holds mu.
func (d *Driver) begin(now time.Time) error {
	d.start = now
	var ids []uint64
	for id, p := range d.pages {
		if !p.added {
			ids = append(ids, uint64(id))
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return d.schedule(ids)
}

// pick chooses the page for the request slot at now: its serialised
// request, or the wait until a host is out of its delay. Caller holds mu.
func (d *Driver) pick(now time.Time) ([]byte, time.Duration, error) {
	if d.start.IsZero() {
		if err := d.begin(now); err != nil {
			return nil, 0, d.fail(err)
		}
	}
	var id uint64
	var err error
	if d.opts.HostDelay > 0 {
		var wait float64
		var ready bool
		id, wait, ready, err = d.sched.NextAt(now.Sub(d.start).Seconds())
		if err == nil && !ready {
			return nil, max(time.Duration(wait*float64(time.Second)), time.Millisecond), nil
		}
	} else {
		id, err = d.sched.Next()
	}
	if err != nil {
		return nil, 0, d.fail(err)
	}
	d.stats.Requests++
	b, err := json.Marshal(d.request(id))
	return b, 0, err
}

// request is page id's next request: its stored request with the page id
// in the context and the conditional validators. Caller holds mu.
func (d *Driver) request(id uint64) wireRequest {
	p := d.pages[id]
	r := p.req
	r.Ctx = map[string]interface{}{}
	for k, v := range p.req.Ctx {
		r.Ctx[k] = v
	}
	r.Ctx[CtxPage] = strconv.FormatUint(id, 10)
	r.Headers = p.req.Headers.Clone()
	if r.Headers == nil {
		r.Headers = http.Header{}
	}
	if !d.opts.NoConditional {
		if p.etag != "" {
			r.Headers.Set("If-None-Match", p.etag)
		}
		if p.lastMod != "" {
			r.Headers.Set("If-Modified-Since", p.lastMod)
		}
	}
	return r
}

// fail records the first scheduler error, which ends the crawl. Caller
// holds mu.
func (d *Driver) fail(err error) error {
	if d.err == nil {
		d.err = fmt.Errorf("collysched: %w", err)
	}
	return d.err
}

// pageOf is the page id of a request issued by the driver.
func pageOf(r *colly.Request) (uint64, bool) {
	if r == nil || r.Ctx == nil {
		return 0, false
	}
	id, err := strconv.ParseUint(r.Ctx.Get(CtxPage), 10, 64)
	return id, err == nil
}

func (d *Driver) onResponse(r *colly.Response) {
	id, ok := pageOf(r.Request)
	if !ok {
		return
	}
	if r.StatusCode == http.StatusNotModified {
		d.record(id, nil, r.Headers)
		return
	}
	var digest []byte
	if d.opts.Digest != nil {
		digest = d.opts.Digest(r)
	} else {
		sum := sha256.Sum256(r.Body)
		digest = sum[:]
	}
	d.record(id, digest, r.Headers)
}

func (d *Driver) onError(r *colly.Response, _ error) {
	id, ok := pageOf(r.Request)
	if ok && r.StatusCode == http.StatusNotModified {
		d.record(id, nil, r.Headers)
		return
	}
	d.mu.Lock()
	d.stats.Errors++
	d.mu.Unlock()
}

// record is a response of page id now: digest nil for 304 Not Modified.
// A revisit is reported to the scheduler with the time since the previous
// response and whether the digest moved.
func (d *Driver) record(id uint64, digest []byte, h *http.Header) {
	now := time.Now()
	d.mu.Lock()
	defer d.mu.Unlock()
	if id >= uint64(len(d.pages)) || d.closed {
		return
	}
	p := d.pages[id]
	d.stats.Responses++
	changed := false
	if digest == nil {
		d.stats.NotModified++
	} else {
		changed = p.digest != nil && string(digest) != string(p.digest)
		p.digest = digest
	}
	if h != nil {
		if v := h.Get("ETag"); v != "" {
			p.etag = v
		}
		if v := h.Get("Last-Modified"); v != "" {
			p.lastMod = v
		}
	}
	if !p.visited.IsZero() {
		if interval := now.Sub(p.visited).Seconds(); interval > 0 {
			if err := d.sched.Observe(id, interval, changed); err != nil {
				d.fail(err)
			}
		}
		if changed {
			p.changes++
			d.stats.Changes++
		}
	}
	p.visits++
	p.visited = now
}
