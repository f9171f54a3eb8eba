package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
)

// PrintTable prints the comparison.
func PrintTable(w io.Writer, r *Result) {
	fmt.Fprintf(w, "\n%d pages (%d with a business-hours pattern), %.2f changes/hour in all; "+
		"budget %.0f requests/hour per crawler; %.1f simulated hours, measured over the last %.1f\n\n",
		r.Pages, r.NewsPages, r.TotalRate, r.Budget, r.SimHours, r.SimHours-r.WindowFrom)
	fmt.Fprintf(w, "%-28s %8s %8s %9s %8s %8s %9s %8s %8s\n",
		"", "fresh", "theory", "vs unif.", "age (h)", "missed", "theory", "req/h", "MB/h")
	var base float64
	for i, m := range r.Modes {
		if i == 0 {
			base = m.Measured.Freshness
		}
		fmt.Fprintf(w, "%-28s %7.1f%% %7.1f%% %+8.1f%% %8.2f %7.1f%% %7.1f%% %8.0f %8.1f\n",
			m.Name, 100*m.Measured.Freshness, 100*m.Theory.Freshness,
			100*(m.Measured.Freshness/base-1), m.Measured.AgeHours,
			100*m.Measured.MissedChanges, 100*m.Theory.MissedChanges,
			m.RequestsPerHour, m.MBPerHour)
	}
	bound := "bound (Theorem 3.4)"
	if r.Polite {
		bound = "bound without host limits"
	}
	fmt.Fprintf(w, "%-28s %8s %7.1f%%\n", bound, "", 100*r.Bound)
	fmt.Fprintf(w, "\ncrawlsched vs uniform: %+.2f points of freshness (± %.2f, paired standard error); theory for the optimum: %+.2f\n",
		100*r.Gain, 100*r.GainStdErr, 100*(r.Modes[len(r.Modes)-1].Theory.Freshness-r.Modes[0].Theory.Freshness))
	fmt.Fprintf(w, "fresh: time-average share of pages whose indexed copy is current (server's ground truth; standard error up to %.1f points).\n",
		100*maxStdErr(r))
	if r.Polite {
		fmt.Fprintf(w, "theory: crawlsched's model for the true change rates, each crawler's crawl times and the hosts' limits\n"+
			"  (crawlsched: the optimal plan under the limits, FreshnessModel.PoliteFrequencies; the others: the shares they plan,\n"+
			"  a host over its limit cut to it and the rest shared out in the same proportions).\n")
	} else {
		fmt.Fprintf(w, "theory: crawlsched's model for the true change rates and each crawler's crawl times.\n")
	}
	fmt.Fprintf(w, "age: mean time since the first change the index missed; missed: changes overwritten before any crawl saw them.\n")
	if r.Polite {
		printHosts(w, r)
	}
	if len(r.Modes) == 3 && !r.Polite {
		cs := r.Modes[2].Measured
		how := "probe planning"
		if r.NoProbes {
			how = "no probe planning"
		}
		fmt.Fprintf(w, "business-hours pages fresh: uniform %.1f%%, proportional %.1f%%, crawlsched (%s) %.1f%%\n",
			100*r.Modes[0].Measured.NewsFreshness, 100*r.Modes[1].Measured.NewsFreshness, how, 100*cs.NewsFreshness)
	}
	if r.TimedOut {
		fmt.Fprintf(w, "(the machine was too busy to keep up: stopped at three times the duration; measured over the %.1f simulated hours every crawler reached)\n", r.SimHours)
	}
	if r.Interrupted {
		fmt.Fprintf(w, "(interrupted: measured over the %.1f simulated hours that ran)\n", r.SimHours)
	}
}

func maxStdErr(r *Result) float64 {
	m := 0.0
	for _, x := range r.Modes {
		if x.Measured.StdErr > m {
			m = x.Measured.StdErr
		}
	}
	return m
}

// WriteResults writes results.json, freshness.svg and freshness.png.
func WriteResults(dir string, r *Result) ([]string, error) {
	j, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	files := []string{filepath.Join(dir, "results.json"), filepath.Join(dir, "freshness.svg"), filepath.Join(dir, "freshness.png")}
	if err := os.WriteFile(files[0], append(j, '\n'), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(files[1], PlotSVG(r), 0o644); err != nil {
		return nil, err
	}
	png, err := PlotPNG(r)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(files[2], png, 0o644); err != nil {
		return nil, err
	}
	return files, nil
}

// printHosts is the per-host table: each host's pages, Crawl-delay and
// limit, each crawler's request rate to it over the measured window, and
// the closest two requests to a host relative to its Crawl-delay (>= 1:
// the limit held).
func printHosts(w io.Writer, r *Result) {
	fmt.Fprintf(w, "\nper host: requests/hour over the measured window (limit: 3600 / Crawl-delay in simulated seconds)\n")
	fmt.Fprintf(w, "%-10s %6s %12s %8s", "host", "pages", "Crawl-delay", "limit/h")
	for _, m := range r.Modes {
		fmt.Fprintf(w, " %13s", shortName(m.Name))
	}
	fmt.Fprintln(w)
	for h, host := range r.Hosts {
		tight := ""
		if host.Tight {
			tight = " (tight)"
		}
		fmt.Fprintf(w, "%-10s %6d %11.1fs %8.0f", host.Addr, host.Pages, host.CrawlDelay, host.MaxRate())
		for _, m := range r.Modes {
			fmt.Fprintf(w, " %13.0f", m.Hosts[h].PerHour)
		}
		fmt.Fprintln(w, tight)
	}
	fmt.Fprintf(w, "%-38s", "closest requests / Crawl-delay (>= 1)")
	for _, m := range r.Modes {
		fmt.Fprintf(w, " %13.3f", minGapRatio(m.Hosts))
	}
	fmt.Fprintf(w, "\n%-38s", "time waiting for a host")
	for _, m := range r.Modes {
		fmt.Fprintf(w, " %12.1f%%", 100*m.IdleShare)
	}
	fmt.Fprintln(w)
}

// minGapRatio is the smallest MinGapRatio over the hosts with a delay.
func minGapRatio(use []HostUse) float64 {
	m := math.Inf(1)
	for _, u := range use {
		if u.MinGapRatio > 0 {
			m = math.Min(m, u.MinGapRatio)
		}
	}
	return m
}
