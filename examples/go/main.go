// Command plan computes a crawl plan with crawlsched from Go: recrawl
// frequencies and a golden-ratio cycle for a few pages, a live scheduler,
// the number of robots to run, a routing period and a probe schedule.
//
//	cargo build --release && cd examples/go && go run .
package main

import (
	"fmt"
	"log"

	crawlsched "github.com/crawlsched/crawlsched/bindings/go"
)

func main() {
	fmt.Printf("crawlsched %s (ABI %d)\n", crawlsched.Version(), crawlsched.LibraryABIVersion())

	// 1. Recrawl frequencies: 6 pages with change rates per hour, a crawl
	// taking 1/4 hour on average (exponential).
	rates := []float64{2.0, 1.0, 0.5, 0.25, 0.1, 0.05}
	access, err := crawlsched.NewExponential(4)
	check(err)
	defer access.Close()
	model, err := crawlsched.NewFreshnessModel(access, rates, nil)
	check(err)
	defer model.Close()
	freq, err := model.OptimalFrequencies()
	check(err)
	lb, err := model.LowerBound()
	check(err)
	fmt.Println("\nOptimal recrawl plan (Theorem 3.4):")
	for i, f := range freq {
		fmt.Printf("  page %d  change rate %5.2f/h  share of crawls %6.2f%%\n", i, rates[i], 100*f)
	}
	fmt.Printf("  missed changes per hour >= %.4f\n", lb)

	counts, err := crawlsched.IntegerCounts(freq, 34, true)
	check(err)
	cycle, err := crawlsched.GoldenRatioSequence(counts)
	check(err)
	cost, err := model.CyclicCost(cycle)
	check(err)
	fmt.Printf("  golden-ratio cycle of %d crawls %v\n  its exact cost %.4f (%.2f%% above the bound)\n",
		len(cycle), cycle, cost, 100*(cost/lb-1))

	// 2. The same pages in a streaming scheduler, as a crawler would use it.
	sched, err := crawlsched.NewScheduler(access, crawlsched.GoldenRatio)
	check(err)
	defer sched.Close()
	for i, r := range rates {
		check(sched.AddPage(uint64(1000+i), r))
	}
	next := make([]uint64, 12)
	check(sched.NextBatch(next))
	fmt.Printf("\nScheduler: next 12 crawls %v\n", next)

	// 3. How many robots: 5 waiting places, 0.1 pages per robot, gamma 0.4 (Table 2).
	robots, err := crawlsched.SolveRobotsUnlimited(5, 0.1, 1, 0.4, nil)
	check(err)
	defer robots.Close()
	c, starv, loss, err := robots.Cost()
	check(err)
	nmin, nbar, nmax, err := robots.Counts()
	check(err)
	fmt.Printf("\nRobots: optimal cost %.5f (starvation %.4f, loss rate %.5f), robots min %d mean %.1f max %d\n",
		c, starv, loss, nmin, nbar, nmax)

	// 4. Routing requests to two fetchers of rates 1 and 3 (Figure 1).
	arr, err := crawlsched.NewPoissonArrivals(1)
	check(err)
	defer arr.Close()
	servers, err := crawlsched.NewServers(arr, []float64{1, 3}, nil, crawlsched.RoutingLosses)
	check(err)
	defer servers.Close()
	plan, err := servers.OptimizeExhaustive(1, 8, nil)
	check(err)
	fmt.Printf("\nRouting: optimal period %v, %.5f packets lost per packet\n", plan.Period, plan.Cost)

	// 5. Probing a DBWorld-like source 14 times in 4 weeks, hourly grid.
	db, err := crawlsched.DBWorldProfile(3, 28)
	check(err)
	defer db.Close()
	planner, err := crawlsched.NewProbePlanner(db, 672, 0)
	check(err)
	defer planner.Close()
	probes, pc, err := planner.Plan(14, crawlsched.ProbeLagrangian)
	check(err)
	uni, err := db.Uniform(14)
	check(err)
	uc, err := db.ExpectedCost(uni)
	check(err)
	fmt.Printf("\nProbing: 14 probes cost %.4f (uniform %.4f); days %.2f\n", pc, uc, probes)
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
