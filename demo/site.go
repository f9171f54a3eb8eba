package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Business hours of the "news" pages: they change only in [newsOpen,
// newsClose) of each simulated day, at a constant intensity in between, so
// their mean rate over a day is their nominal rate.
const (
	newsOpen  = 9.0
	newsClose = 18.0
)

// Simulated calendar origin for Last-Modified: a Monday, 00:00 UTC, so the
// hour of the simulated day is readable from the header.
var epoch = time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)

// Page is one page of the site and its ground truth.
type Page struct {
	ID   int
	Path string
	// Rate is the mean number of changes per simulated hour.
	Rate float64
	// News pages change only during business hours.
	News bool
	// Size is the body size in bytes (fixed per page).
	Size int
	// Host is the index of the host serving the page (Site.Hosts).
	Host int
	// Changes are the change times (simulated hours, increasing); the
	// version at time t is the number of changes at or before t.
	Changes []float64
}

// VersionAt is the number of changes in [0, t].
func (p *Page) VersionAt(t float64) int {
	return sort.SearchFloat64s(p.Changes, math.Nextafter(t, math.Inf(1)))
}

// Site is the generated website: pages, their change processes and the
// simulated clock they are served by.
type Site struct {
	Pages []*Page
	Hosts []*Host
	clock *Clock
	body  []byte // shared filler for page bodies
	log   requestLog
}

// SiteConfig sets the generated site.
type SiteConfig struct {
	Pages   int
	Horizon float64 // simulated hours of change times to generate
	Seed    uint64
	// NewsShare is the fraction of pages with the business-hours pattern.
	NewsShare float64
	// Hosts serve the pages (1: one host without a Crawl-delay); the
	// Tight largest ones get a binding Crawl-delay (see newHosts), set
	// from Budget, the crawlers' requests per simulated hour.
	Hosts, Tight int
	Budget       float64
}

// Rate distribution: log-normal with sigma 2 (heavy tail: a tenth of the
// pages change 13 times as often as the median one or more, a tenth 13
// times less), median one change every 16 simulated hours, capped at 6
// per hour.
const (
	rateMedian = 1.0 / 16
	rateSigma  = 2.0
	rateMax    = 6.0
)

// Size distribution: log-normal bytes, median 16 KiB, sigma 1 (a mean of
// about 27 KiB), between 1 KiB and 1 MiB.
const (
	sizeMedian = 16 << 10
	sizeSigma  = 1.0
	sizeMin    = 1 << 10
	sizeMax    = 1 << 20
)

// NewSite draws the pages and their change times.
func NewSite(cfg SiteConfig, clock *Clock) *Site {
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5173))
	s := &Site{clock: clock}
	for i := 0; i < cfg.Pages; i++ {
		p := &Page{ID: i}
		p.Rate = math.Min(rateMax, rateMedian*math.Exp(rateSigma*rng.NormFloat64()))
		p.News = rng.Float64() < cfg.NewsShare
		p.Size = int(math.Max(sizeMin, math.Min(sizeMax, sizeMedian*math.Exp(sizeSigma*rng.NormFloat64()))))
		if p.News {
			p.Path = fmt.Sprintf("/news/%d", i)
		} else {
			p.Path = fmt.Sprintf("/page/%d", i)
		}
		p.Changes = changeTimes(rng, p.Rate, p.News, cfg.Horizon)
		s.Pages = append(s.Pages, p)
	}
	s.Hosts = newHosts(cfg, s.Pages)
	s.body = []byte(strings.Repeat("crawlsched demo filler text. ", sizeMax/29+1))
	return s
}

// newsIntensity is the business-hours shape: 24/(close-open) inside the
// hours, 0 outside, so it averages to 1 over a day.
func newsIntensity(t float64) float64 {
	h := math.Mod(t, 24)
	if h >= newsOpen && h < newsClose {
		return 24 / (newsClose - newsOpen)
	}
	return 0
}

// changeTimes draws a Poisson process of mean rate `rate` on [0, horizon]:
// homogeneous, or (news) modulated by newsIntensity, by thinning a
// homogeneous process at the peak rate.
func changeTimes(rng *rand.Rand, rate float64, news bool, horizon float64) []float64 {
	peak := rate
	if news {
		peak = rate * 24 / (newsClose - newsOpen)
	}
	var out []float64
	for t := rng.ExpFloat64() / peak; t <= horizon; t += rng.ExpFloat64() / peak {
		if !news || rng.Float64()*peak < rate*newsIntensity(t) {
			out = append(out, t)
		}
	}
	return out
}

// simTime is the simulated calendar time of simulated hour t.
func simTime(t float64) time.Time {
	return epoch.Add(time.Duration(t * float64(time.Hour)))
}

// serve answers one request to host h: the sitemap (first host: every
// page's URL, all hosts), robots.txt (the host's Crawl-delay) and the
// host's pages: ETag is the version, Last-Modified the time of the last
// change (simulated calendar), and If-None-Match gives 304 Not Modified
// when the version is unchanged. Page requests are logged per crawler
// (User-Agent) and host.
func (s *Site) serve(host int, w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/sitemap.txt" && host == 0:
		w.Header().Set("Content-Type", "text/plain")
		var b strings.Builder
		for _, p := range s.Pages {
			b.WriteString(s.URL(p))
			b.WriteByte('\n')
		}
		_, _ = w.Write([]byte(b.String()))
		return
	case r.URL.Path == "/robots.txt":
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(s.Hosts[host].robots()))
		return
	}
	var idText string
	switch {
	case strings.HasPrefix(r.URL.Path, "/page/"):
		idText = r.URL.Path[len("/page/"):]
	case strings.HasPrefix(r.URL.Path, "/news/"):
		idText = r.URL.Path[len("/news/"):]
	}
	id, err := strconv.Atoi(idText)
	if err != nil || id < 0 || id >= len(s.Pages) || s.Pages[id].Path != r.URL.Path || s.Pages[id].Host != host {
		http.NotFound(w, r)
		return
	}
	p := s.Pages[id]
	// The demo's crawlers say when (in simulated time) they ask; anyone
	// else gets the site as of now.
	now := s.clock.Now()
	if t, err := strconv.ParseFloat(r.Header.Get(SimTimeHeader), 64); err == nil && t >= 0 && !math.IsInf(t, 0) {
		now = t
	}
	s.log.add(r.UserAgent(), host, len(s.Hosts), now)
	v := p.VersionAt(now)
	etag := `"v` + strconv.Itoa(v) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	if v > 0 {
		h.Set("Last-Modified", simTime(p.Changes[v-1]).Format(http.TimeFormat))
	} else {
		h.Set("Last-Modified", epoch.Format(http.TimeFormat))
	}
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	head := fmt.Sprintf("<html><title>page %d version %d</title><body>", id, v)
	h.Set("Content-Type", "text/html")
	h.Set("Content-Length", strconv.Itoa(p.Size))
	if len(head) > p.Size {
		head = head[:p.Size]
	}
	_, _ = w.Write([]byte(head))
	_, _ = w.Write(s.body[:p.Size-len(head)])
}

// Serve starts every host on its loopback address (127.0.0.1, 127.0.0.2,
// ...: all of 127/8 is the loopback interface on Linux; an ephemeral port,
// never another interface) and returns the first host's base URL (the
// sitemap's) and a function that shuts them all down.
func (s *Site) Serve() (string, func(), error) {
	var srvs []*http.Server
	stop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		for _, srv := range srvs {
			_ = srv.Shutdown(ctx)
		}
	}
	for h, host := range s.Hosts {
		ln, err := net.Listen("tcp", host.Addr+":0")
		if err != nil {
			stop()
			return "", nil, fmt.Errorf("host %s: %w", host.Addr, err)
		}
		host.Base = "http://" + ln.Addr().String()
		srv := &http.Server{ReadHeaderTimeout: 5 * time.Second,
			Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.serve(h, w, r) })}
		srvs = append(srvs, srv)
		go func() { _ = srv.Serve(ln) }()
	}
	return s.Hosts[0].Base, stop, nil
}

// URL is page p's address (after Serve).
func (s *Site) URL(p *Page) string { return s.Hosts[p.Host].Base + p.Path }

// Clock maps real time to simulated hours: Scale simulated hours per real
// second since Start.
type Clock struct {
	Start time.Time
	Scale float64
}

// Now is the current simulated time in hours.
func (c *Clock) Now() float64 {
	return time.Since(c.Start).Seconds() * c.Scale
}

// RealAt is the real time at which simulated hour t happens.
func (c *Clock) RealAt(t float64) time.Time {
	return c.Start.Add(time.Duration(t / c.Scale * float64(time.Second)))
}
