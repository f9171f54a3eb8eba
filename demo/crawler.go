package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Fetch is one fetch in a crawler's log: when, and which version (the
// ETag) the index holds afterwards.
type Fetch struct {
	T       float64
	Version int32
}

// Politeness: one request at a time per crawler (one host), a fixed delay
// after each response and a bandwidth limit, so one crawl occupies the
// crawler for delay + bytes/bandwidth. Both are set from the budget so that
// a full page takes 1/budget hours on average (80% delay, 20% transfer; a
// 304 Not Modified takes little more than the delay).
type Politeness struct {
	Delay     float64 // simulated hours after each response
	Bandwidth float64 // bytes per simulated hour
}

// headerBytes approximates the bytes of a request and response headers.
const headerBytes = 400

// Crawler is one HTTP crawler: a mode picks pages, the crawler fetches them
// with conditional GETs and keeps an index of the versions it holds.
type Crawler struct {
	Name   string
	mode   Mode
	urls   []string
	limits *Limiter
	clock  *Clock
	polite Politeness
	client *http.Client
	// MaxRequests bounds the run (0: no bound).
	MaxRequests int64

	mu         sync.Mutex
	version    []int32 // -1: not in the index
	lastVisit  []float64
	Log        [][]Fetch
	CrawlTimes []float64
	// Slots are the crawl times plus the idle time after each (waiting
	// for a host): the time from one request to the next.
	Slots       []float64
	Idle        float64
	Requests    int64
	Bytes       int64
	NotModified int64
	Err         error
	// Reached is the simulated time the crawler has got to.
	Reached float64
}

// NewCrawler crawls urls (the sitemap's) with mode, within limits (each
// crawler has its own copy: the same limits, its own request times).
func NewCrawler(name string, mode Mode, urls []string, limits *Limiter, clock *Clock, polite Politeness) *Crawler {
	c := &Crawler{Name: name, mode: mode, urls: urls, limits: limits.Copy(), clock: clock, polite: polite,
		client: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 1}}}
	c.version = make([]int32, len(urls))
	for i := range c.version {
		c.version[i] = -1
	}
	c.lastVisit = make([]float64, len(urls))
	c.Log = make([][]Fetch, len(urls))
	return c
}

// SimTimeHeader carries the simulated time at which a crawler issues a
// request; the site answers as of that time. A crawler waits for the real
// clock to reach its next slot, but when the machine is busy (a slow
// response, a descheduled process) it falls behind: its requests then go
// out late in real time but still carry their scheduled simulated time, so
// a busy machine slows the run down instead of distorting the comparison.
const SimTimeHeader = "X-Demo-Sim-Time"

// Run crawls until simulated time `until`, the request bound or ctx ends.
// Crawl k+1 is scheduled one crawl time after crawl k, or later when no
// host is ready (the crawler idles until one is).
func (c *Crawler) Run(ctx context.Context, until float64) {
	defer c.client.CloseIdleConnections()
	start := 0.0
	for ctx.Err() == nil && start < until && (c.MaxRequests == 0 || c.Requests < c.MaxRequests) {
		page, wait, err := c.mode.Next(start, c.limits)
		if err != nil {
			c.fail(fmt.Errorf("%s: planning: %w", c.Name, err))
			return
		}
		// The shared rule: a request never goes to a host before its
		// Crawl-delay has passed; it waits (idle time) instead.
		if page >= 0 {
			wait = c.limits.Free(c.limits.Host[page]) - start
		} else if wait = math.Max(wait, c.limits.NextFree()-start); !(wait > 0) {
			c.fail(fmt.Errorf("%s: no page and no host to wait for at %g h", c.Name, start))
			return
		}
		if wait > 0 {
			start += wait
			c.mu.Lock()
			c.Idle += wait
			if len(c.Slots) > 0 {
				c.Slots[len(c.Slots)-1] += wait
			}
			c.mu.Unlock()
			if page < 0 {
				continue
			}
		}
		c.limits.record(c.limits.Host[page], start)
		x, err := c.fetch(ctx, page, start)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			c.fail(err)
			return
		}
		start += x
		c.mu.Lock()
		c.Reached = start
		c.mu.Unlock()
		if wait := time.Until(c.clock.RealAt(start)); wait > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
		}
	}
}

func (c *Crawler) fail(err error) {
	c.mu.Lock()
	c.Err = err
	c.mu.Unlock()
}

// fetch GETs one page at simulated time now (conditionally when the index
// holds it), updates the index and the mode, and returns the simulated
// time it occupied.
func (c *Crawler) fetch(ctx context.Context, page int, now float64) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.urls[page], nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("User-Agent", c.UserAgent())
	req.Header.Set(SimTimeHeader, strconv.FormatFloat(now, 'g', -1, 64))
	c.mu.Lock()
	have := c.version[page]
	c.mu.Unlock()
	if have >= 0 {
		req.Header.Set("If-None-Match", `"v`+strconv.Itoa(int(have))+`"`)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", c.Name, err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil {
		return 0, fmt.Errorf("%s: reading %s: %w", c.Name, c.urls[page], err)
	}
	var v int32
	switch resp.StatusCode {
	case http.StatusOK:
		etag := strings.Trim(resp.Header.Get("ETag"), `"`)
		x, err := strconv.Atoi(strings.TrimPrefix(etag, "v"))
		if err != nil {
			return 0, fmt.Errorf("%s: bad ETag %q", c.Name, etag)
		}
		v = int32(x)
	case http.StatusNotModified:
		v = have
	default:
		return 0, fmt.Errorf("%s: %s: %s", c.Name, c.urls[page], resp.Status)
	}
	lastMod := 0.0
	if t, err := http.ParseTime(resp.Header.Get("Last-Modified")); err == nil {
		lastMod = t.Sub(epoch).Hours()
	}
	x := c.polite.Delay + float64(n+headerBytes)/c.polite.Bandwidth

	c.mu.Lock()
	interval := 0.0
	if have >= 0 {
		interval = now - c.lastVisit[page]
	}
	changed := have >= 0 && v != have
	c.version[page] = v
	c.lastVisit[page] = now
	c.Log[page] = append(c.Log[page], Fetch{T: now, Version: v})
	c.CrawlTimes = append(c.CrawlTimes, x)
	c.Slots = append(c.Slots, x)
	c.Requests++
	c.Bytes += n + headerBytes
	if resp.StatusCode == http.StatusNotModified {
		c.NotModified++
	}
	c.mu.Unlock()

	if interval > 0 || have < 0 {
		if err := c.mode.Observe(page, now, interval, changed, lastMod, x); err != nil {
			return 0, fmt.Errorf("%s: estimator: %w", c.Name, err)
		}
	}
	return x, nil
}

// FreshNow is the fraction of pages whose indexed version is current at
// simulated time t (for the progress line).
func (c *Crawler) FreshNow(site *Site, t float64) float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	fresh := 0
	for i, p := range site.Pages {
		if c.version[i] >= 0 && int(c.version[i]) == p.VersionAt(t) {
			fresh++
		}
	}
	return float64(fresh) / float64(len(site.Pages))
}

// Stats is a consistent copy of the counters.
func (c *Crawler) Stats() (requests, bytes, notModified int64, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Requests, c.Bytes, c.NotModified, c.Err
}

// UserAgent names the crawler to the site (whose request log is per
// User-Agent).
func (c *Crawler) UserAgent() string { return "crawlsched-demo (" + c.Name + ")" }
