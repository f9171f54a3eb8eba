package main

import (
	"encoding/json"
	"fmt"
	"io"
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
	fmt.Fprintf(w, "%-28s %8s %7.1f%%\n", "bound (Theorem 3.4)", "", 100*r.Bound)
	fmt.Fprintf(w, "\ncrawlsched vs uniform: %+.2f points of freshness (± %.2f, paired standard error); theory for the optimum: %+.2f\n",
		100*r.Gain, 100*r.GainStdErr, 100*(r.Modes[len(r.Modes)-1].Theory.Freshness-r.Modes[0].Theory.Freshness))
	fmt.Fprintf(w, "fresh: time-average share of pages whose indexed copy is current (server's ground truth; standard error up to %.1f points).\n",
		100*maxStdErr(r))
	fmt.Fprintf(w, "theory: crawlsched's model for the true change rates and each crawler's crawl times.\n")
	fmt.Fprintf(w, "age: mean time since the first change the index missed; missed: changes overwritten before any crawl saw them.\n")
	if len(r.Modes) == 3 {
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
