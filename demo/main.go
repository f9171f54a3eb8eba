// Command demo runs real HTTP crawlers against a live local website and
// compares recrawl policies: uniform round robin, crawling in proportion to
// change rate, and crawlsched (optimal frequencies, golden-ratio sequence,
// probe planning), all learning change rates online. See README.md.
//
//	./scripts/demo [--quick] [--duration 60s] [--scale 2] [--pages 2000] [--budget 500] [--hosts 5] [--tight 2] [--seed 1] [--out target/demo]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

// Config is one demo run.
type Config struct {
	Duration time.Duration // real time
	Scale    float64       // simulated hours per real second
	Pages    int
	Budget   float64 // requests per simulated hour, per crawler, on average
	Seed     uint64
	Out      string // "" writes no files
	// NewsShare is the fraction of pages with a daily pattern.
	NewsShare float64
	// Hosts serve the pages; the Tight largest have a binding Crawl-delay
	// (hostShares). One host has no Crawl-delay.
	Hosts, Tight int
	// NoProbes turns off crawlsched's probe planning (to see its effect).
	NoProbes bool
	// Streaming adds a fourth crawler (with host limits): crawlsched's
	// streaming Scheduler with SetHost, SetHostDelay and NextAt.
	Streaming bool
	// Progress receives progress lines (nil: none).
	Progress io.Writer
}

const usageText = `usage: demo [flags]

Starts a website of several hosts (127.0.0.1, 127.0.0.2, ...) whose pages
change at random, each host with a Crawl-delay in its robots.txt, and
crawls it with three HTTP crawlers side by side under the same limits:
uniform round robin, proportional to change rate, and crawlsched. Prints a
table; writes results.json, freshness.svg and freshness.png to --out.

flags:
  --duration D   real running time, 5s..1h (default 60s; --quick 20s)
  --scale S      simulated hours per real second, 0.1..10 (default 2; --quick 6)
  --pages N      pages on the site, 100..20000 (default 2000; --quick 1000)
  --budget B     politeness budget: full-page requests per simulated hour per
                 crawler, 10..2000 (default 500; --quick 250); 304 responses
                 are cheaper, so crawlers make B to 1.25 B requests an hour
  --hosts H      hosts, 1..16 (default 5); pages are spread unevenly (host k
                 gets a share proportional to 1/k); 1 is a single host
                 without a Crawl-delay
  --tight T      hosts whose Crawl-delay binds (default 2, at most H - 1):
                 the T largest allow half their uniform share of requests,
                 the others four times theirs
  --seed S       random seed of the site (default 1)
  --out DIR      output directory (default target/demo)
  --quick        a short run (20 s, 120 simulated hours)
  --no-probes    crawlsched without probe planning for the business-hours
                 pages (the scheduler crawls them like the others)
  --streaming    a fourth crawler (with --hosts > 1): crawlsched's streaming
                 Scheduler with per-host delays (SetHost, SetHostDelay,
                 NextAt), learning rates online, planning without the limits

Ctrl-C stops early and prints what was measured.
`

func usage(msg string) {
	if msg != "" {
		fmt.Fprintf(os.Stderr, "demo: %s\n\n", msg)
	}
	fmt.Fprint(os.Stderr, usageText)
	os.Exit(2)
}

func parseFlags(args []string) Config {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	duration := fs.Duration("duration", 0, "")
	pages := fs.Int("pages", 0, "")
	budget := fs.Float64("budget", 0, "")
	scale := fs.Float64("scale", 0, "")
	seed := fs.Uint64("seed", 1, "")
	out := fs.String("out", "target/demo", "")
	quick := fs.Bool("quick", false, "")
	noProbes := fs.Bool("no-probes", false, "")
	streaming := fs.Bool("streaming", false, "")
	hosts := fs.Int("hosts", 5, "")
	tight := fs.Int("tight", -1, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Print(usageText)
			os.Exit(0)
		}
		usage(err.Error())
	}
	if fs.NArg() > 0 {
		usage(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	cfg := Config{Duration: 60 * time.Second, Scale: 2, Pages: 2000, Budget: 500,
		Seed: *seed, Out: *out, NewsShare: 0.1, NoProbes: *noProbes, Progress: os.Stdout,
		Hosts: *hosts, Tight: *tight, Streaming: *streaming}
	if cfg.Tight < 0 {
		cfg.Tight = min(2, cfg.Hosts-1)
	}
	if *quick {
		cfg.Duration, cfg.Scale, cfg.Pages, cfg.Budget = 20*time.Second, 6, 1000, 250
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["duration"] {
		cfg.Duration = *duration
	}
	if set["pages"] {
		cfg.Pages = *pages
	}
	if set["budget"] {
		cfg.Budget = *budget
	}
	if set["scale"] {
		cfg.Scale = *scale
	}
	switch {
	case cfg.Duration < 5*time.Second || cfg.Duration > time.Hour:
		usage("--duration must be between 5s and 1h")
	case cfg.Pages < 100 || cfg.Pages > 20000:
		usage("--pages must be between 100 and 20000")
	case !(cfg.Budget >= 10 && cfg.Budget <= 2000):
		usage("--budget must be between 10 and 2000")
	case !(cfg.Scale >= 0.1 && cfg.Scale <= 10):
		usage("--scale must be between 0.1 and 10")
	case cfg.Out == "":
		usage("--out must not be empty")
	case cfg.Hosts < 1 || cfg.Hosts > 16:
		usage("--hosts must be between 1 and 16")
	case cfg.Tight < 0 || cfg.Tight > cfg.Hosts-1:
		usage("--tight must be between 0 and --hosts minus 1")
	}
	if _, limits := hostShares(cfg.Hosts, cfg.Tight); cfg.Hosts > 1 && reachableShare(limits) < 1.05 {
		usage(fmt.Sprintf("--tight %d: %d hosts with those Crawl-delays cannot take a crawler's budget; use fewer tight hosts", cfg.Tight, cfg.Hosts))
	}
	return cfg
}

func main() {
	cfg := parseFlags(os.Args[1:])
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := Run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "demo: %v\n", err)
		os.Exit(1)
	}
	if res.SimHours <= 0 {
		fmt.Fprintln(os.Stderr, "demo: stopped before the first crawl; nothing to report")
		os.Exit(130)
	}
	PrintTable(os.Stdout, res)
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		fmt.Fprintf(os.Stderr, "demo: %v\n", err)
		os.Exit(1)
	}
	files, err := WriteResults(cfg.Out, res)
	if err != nil {
		fmt.Fprintf(os.Stderr, "demo: %v\n", err)
		os.Exit(1)
	}
	for _, f := range files {
		fmt.Printf("wrote %s\n", filepath.Clean(f))
	}
	if res.Interrupted {
		os.Exit(130)
	}
}
