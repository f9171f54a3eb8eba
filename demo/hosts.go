package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"sync"
)

// Host is one host of the site: a loopback address of its own, a share
// of the pages and a politeness limit, published as robots.txt's
// Crawl-delay (simulated seconds between two requests; 0: none).
type Host struct {
	Addr  string `json:"addr"`
	Base  string `json:"-"`
	Pages int    `json:"pages"`
	// CrawlDelay is in simulated seconds, Delay the same in hours.
	CrawlDelay float64 `json:"crawl_delay_seconds"`
	Delay      float64 `json:"-"`
	// Tight: the limit is below the host's share of a uniform crawl.
	Tight bool `json:"tight"`
}

// MaxRate is the host's limit in requests per simulated hour (+Inf: none).
func (h *Host) MaxRate() float64 {
	if h.Delay <= 0 {
		return math.Inf(1)
	}
	return 1 / h.Delay
}

func (h *Host) robots() string {
	if h.CrawlDelay <= 0 {
		return "User-agent: *\nAllow: /\n"
	}
	return fmt.Sprintf("User-agent: *\nCrawl-delay: %g\n", h.CrawlDelay)
}

// Host limits, as shares of a crawler's budget of requests: a tight host
// allows half of its share of the pages (a uniform crawler would send it
// twice as many requests), a loose one four times its share.
const (
	tightShare = 0.5
	looseShare = 4.0
)

// hostShares are the hosts' shares of the pages, uneven (Zipf: host k
// gets a share proportional to 1/(k+1)), and their limits as shares of
// the budget (+Inf: none; the Tight largest hosts are tight).
func hostShares(hosts, tight int) (pages, limits []float64) {
	total := 0.0
	for k := 0; k < hosts; k++ {
		total += 1 / float64(k+1)
	}
	for k := 0; k < hosts; k++ {
		s := 1 / float64(k+1) / total
		pages = append(pages, s)
		switch {
		case hosts == 1:
			limits = append(limits, math.Inf(1))
		case k < tight:
			limits = append(limits, tightShare*s)
		default:
			limits = append(limits, looseShare*s)
		}
	}
	return pages, limits
}

// reachableShare is the share of a one-connection crawler's requests that
// limits allow in all: a host with limit share κ is ready again 1/κ mean
// crawls after a request, and then waits for the crawl in progress to end
// (about half a crawl more), so it gets at most 1/(1/κ + 1/2). Below 1, the
// crawlers would idle waiting for hosts.
func reachableShare(limits []float64) float64 {
	s := 0.0
	for _, k := range limits {
		s += 1 / (1/k + 0.5)
	}
	return s
}

// newHosts spreads the pages over the hosts (exact counts from the shares,
// assigned at random from a stream of their own, so the pages' rates and
// sizes are those of the one-host site) and sets each host's Crawl-delay
// from the crawlers' budget (to 0.1 simulated second).
func newHosts(cfg SiteConfig, pages []*Page) []*Host {
	n := max(cfg.Hosts, 1)
	shares, limits := hostShares(n, cfg.Tight)
	var hosts []*Host
	var label []int
	for k := 0; k < n; k++ {
		h := &Host{Addr: fmt.Sprintf("127.0.0.%d", k+1), Pages: int(shares[k] * float64(len(pages)))}
		if !math.IsInf(limits[k], 1) {
			h.CrawlDelay = math.Round(36000/(limits[k]*cfg.Budget)) / 10
			h.Delay = h.CrawlDelay / 3600
			h.Tight = k < cfg.Tight
		}
		hosts = append(hosts, h)
	}
	for k := 0; sumPages(hosts) < len(pages); k++ {
		hosts[k%n].Pages++
	}
	for k, h := range hosts {
		for range h.Pages {
			label = append(label, k)
		}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x4057))
	rng.Shuffle(len(label), func(i, j int) { label[i], label[j] = label[j], label[i] })
	for i, p := range pages {
		p.Host = label[i]
	}
	return hosts
}

func sumPages(hosts []*Host) int {
	s := 0
	for _, h := range hosts {
		s += h.Pages
	}
	return s
}

// requestLog is the site's record of page requests: for each User-Agent
// and host, the simulated times of the requests (in arrival order, which
// for one crawler is the order of its simulated times).
type requestLog struct {
	mu sync.Mutex
	by map[string][][]float64
}

func (l *requestLog) add(agent string, host, hosts int, t float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.by == nil {
		l.by = map[string][][]float64{}
	}
	if l.by[agent] == nil {
		l.by[agent] = make([][]float64, hosts)
	}
	l.by[agent][host] = append(l.by[agent][host], t)
}

// HostUse is what the site saw of one crawler on one host.
type HostUse struct {
	Requests int `json:"requests"`
	// PerHour is the request rate over [from, to] (simulated hours).
	PerHour float64 `json:"requests_per_hour"`
	// MinGapRatio is the shortest time between two requests divided by the
	// host's Crawl-delay (>= 1: the limit held; 0 without a delay or with
	// fewer than two requests).
	MinGapRatio float64 `json:"min_gap_over_crawl_delay,omitempty"`
}

// Use is the site's view of the crawler with this User-Agent, per host.
func (s *Site) Use(agent string, from, to float64) []HostUse {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	out := make([]HostUse, len(s.Hosts))
	for h, times := range s.log.by[agent] {
		u := HostUse{Requests: len(times)}
		in := sort.SearchFloat64s(times, to) - sort.SearchFloat64s(times, from)
		if to > from {
			u.PerHour = float64(in) / (to - from)
		}
		for k := 1; k < len(times); k++ {
			if d := s.Hosts[h].Delay; d > 0 && (k == 1 || (times[k]-times[k-1])/d < u.MinGapRatio) {
				u.MinGapRatio = (times[k] - times[k-1]) / d
			}
		}
		out[h] = u
	}
	return out
}
