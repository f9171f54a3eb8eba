package crawlsched_test

import (
	"errors"
	"fmt"
	"math"

	crawlsched "github.com/crawlsched/crawlsched/bindings/go"
)

// Six pages on three hosts; the crawler could do 2 crawls per unit time
// (E[X] = 1/2) but host 2 accepts only 0.6: it gets exactly 0.6/2 = 0.3 of
// the crawls and the other hosts share the rest optimally.
func ExampleFreshnessModel_PoliteFrequencies() {
	access, _ := crawlsched.NewExponential(2)
	defer access.Close()
	m, _ := crawlsched.NewFreshnessModel(access, []float64{0.1, 0.3, 0.5, 1, 2, 4}, nil)
	defer m.Close()
	hosts := []uint32{0, 0, 1, 1, 2, 2}
	inf := math.Inf(1)

	plan, err := m.PoliteFrequencies(hosts, []float64{inf, inf, 0.6}, crawlsched.PoliteEvenlySpaced, false, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("frequencies %.4f\n", plan.Frequencies)
	fmt.Println("saturated", plan.Saturated)
	fmt.Printf("host 2 share %.4f, crawl rate %g\n", plan.Frequencies[4]+plan.Frequencies[5], plan.CrawlRate)

	// Caps summing below the crawler's rate: refused, or used in full.
	_, err = m.PoliteFrequencies(hosts, []float64{0.2, 0.3, 0.1}, crawlsched.PoliteEvenlySpaced, false, nil)
	fmt.Println(errors.Is(err, crawlsched.ErrInfeasible))
	slack, _ := m.PoliteFrequencies(hosts, []float64{0.2, 0.3, 0.1}, crawlsched.PoliteEvenlySpaced, true, nil)
	fmt.Printf("slack: crawl rate %.1f, ln multiplier %v\n", slack.CrawlRate, slack.LnMultiplier)
	// Output:
	// frequencies [0.0418 0.1197 0.1912 0.3473 0.1161 0.1839]
	// saturated [false false true]
	// host 2 share 0.3000, crawl rate 2
	// true
	// slack: crawl rate 0.6, ln multiplier -Inf
}

// A crawler loop on its own clock: pages 1 and 2 share host 0 (one crawl
// per 1.0 time units at most), page 3 is alone on host 1 (0.5). When no
// host is ready NextAt says how long to wait instead of picking a page.
func ExampleScheduler_NextAt() {
	access, _ := crawlsched.NewExponential(4)
	defer access.Close()
	s, _ := crawlsched.NewScheduler(access, crawlsched.Stride)
	defer s.Close()
	pages := []struct {
		id   uint64
		host uint32
	}{{1, 0}, {2, 0}, {3, 1}}
	for _, p := range pages {
		_ = s.AddPage(p.id, 1)
		_ = s.SetHost(p.id, p.host)
	}
	_ = s.SetHostDelay(0, 1.0)
	_ = s.SetHostDelay(1, 0.5)

	now := 0.0
	for k := 0; k < 8; k++ {
		id, wait, ready, err := s.NextAt(now)
		if err != nil {
			panic(err)
		}
		if !ready {
			fmt.Printf("t=%.2f wait %.2f\n", now, wait)
			now += wait // a real crawler sleeps here
			continue
		}
		fmt.Printf("t=%.2f crawl page %d\n", now, id)
		now += 0.25 // the crawl takes a quarter of a time unit
	}
	// Both hosts are at their caps (every page is on a host), and the one
	// with the shorter delay goes first when both are ready.
	//
	// Output:
	// t=0.00 crawl page 3
	// t=0.25 crawl page 1
	// t=0.50 crawl page 3
	// t=0.75 wait 0.25
	// t=1.00 crawl page 3
	// t=1.25 crawl page 2
	// t=1.50 crawl page 3
	// t=1.75 wait 0.25
}
