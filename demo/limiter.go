package main

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Limiter is a crawler's view of the hosts' politeness limits: each page's
// host (by URL authority, in order of first appearance in the sitemap),
// each host's Crawl-delay from its robots.txt, and when each host may be
// asked again. Every crawler follows the same rule with it (Crawler.Run):
// a request to a host waits until the host's delay since the previous
// request has passed; the modes choose among the hosts that are ready.
type Limiter struct {
	Host  []int     // per page
	Names []string  // per host: host:port
	Delay []float64 // per host: simulated hours between two requests (0: none)
	free  []float64 // per host: earliest time of the next request
}

// Polite is whether some host has a delay.
func (l *Limiter) Polite() bool {
	for _, d := range l.Delay {
		if d > 0 {
			return true
		}
	}
	return false
}

// Copy has the same hosts and delays, every host ready.
func (l *Limiter) Copy() *Limiter {
	c := *l
	c.free = make([]float64, len(l.Delay))
	return &c
}

// Ready is whether host h may be asked at now.
func (l *Limiter) Ready(h int, now float64) bool { return l.free[h] <= now }

// Free is when host h may be asked next.
func (l *Limiter) Free(h int) float64 { return l.free[h] }

// NextFree is the earliest time a host may be asked.
func (l *Limiter) NextFree() float64 {
	t := math.Inf(1)
	for _, f := range l.free {
		t = math.Min(t, f)
	}
	return t
}

func (l *Limiter) record(h int, now float64) { l.free[h] = now + l.Delay[h] }

// Hosts is the number of hosts.
func (l *Limiter) Hosts() int { return len(l.Delay) }

// discoverHosts groups the sitemap's URLs by host and reads each host's
// robots.txt for its Crawl-delay (simulated seconds).
func discoverHosts(ctx context.Context, urls []string) (*Limiter, error) {
	l := &Limiter{}
	index := map[string]int{}
	var robots []string
	for _, u := range urls {
		p, err := url.Parse(u)
		if err != nil || p.Host == "" {
			return nil, fmt.Errorf("sitemap: bad URL %q", u)
		}
		h, ok := index[p.Host]
		if !ok {
			h = len(l.Names)
			index[p.Host] = h
			l.Names = append(l.Names, p.Host)
			robots = append(robots, p.Scheme+"://"+p.Host+"/robots.txt")
		}
		l.Host = append(l.Host, h)
	}
	for _, r := range robots {
		d, err := crawlDelay(ctx, r)
		if err != nil {
			return nil, err
		}
		l.Delay = append(l.Delay, d/3600)
	}
	l.free = make([]float64, len(l.Delay))
	return l, nil
}

// crawlDelay is the Crawl-delay of a robots.txt (0 when absent).
func crawlDelay(ctx context.Context, u string) (float64, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("robots.txt: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, nil
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.EqualFold(strings.TrimSpace(k), "crawl-delay") {
			d, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || !(d >= 0) || math.IsInf(d, 0) {
				return 0, fmt.Errorf("%s: bad Crawl-delay %q", u, v)
			}
			return d, nil
		}
	}
	return 0, sc.Err()
}
