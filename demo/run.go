package main

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"
)

// ModeResult is one crawler's outcome.
type ModeResult struct {
	Name     string   `json:"name"`
	Measured Measured `json:"measured"`
	Theory   Theory   `json:"theory"`
	// PlanTheory is the theory for the frequencies the crawler planned
	// last (its learnt rates), evaluated on the true rates.
	PlanTheory  *Theory `json:"plan_theory,omitempty"`
	Requests    int64   `json:"requests"`
	NotModified int64   `json:"not_modified"`
	Bytes       int64   `json:"bytes"`
	// RequestsPerHour and MBPerHour are per simulated hour over the run.
	RequestsPerHour float64 `json:"requests_per_hour"`
	MBPerHour       float64 `json:"mb_per_hour"`
	Series          Series  `json:"series"`
	// Hosts is what the site saw of the crawler, per host (rates over the
	// measured window); IdleShare the share of the run it waited for hosts.
	Hosts     []HostUse `json:"hosts"`
	IdleShare float64   `json:"idle_share"`
}

// Result is a whole run.
type Result struct {
	Pages      int     `json:"pages"`
	NewsPages  int     `json:"news_pages"`
	Budget     float64 `json:"budget_requests_per_hour"`
	Scale      float64 `json:"sim_hours_per_real_second"`
	SimHours   float64 `json:"sim_hours"`
	WindowFrom float64 `json:"window_from_hours"`
	Seed       uint64  `json:"seed"`
	TotalRate  float64 `json:"total_change_rate_per_hour"`
	Bound      float64 `json:"freshness_bound"`
	// Gain is crawlsched's measured freshness minus uniform's, GainStdErr
	// its standard error (paired batch means).
	Gain       float64 `json:"crawlsched_gain_over_uniform"`
	GainStdErr float64 `json:"crawlsched_gain_std_error"`
	// NewsShape is the hourly update intensity of the business-hours pages
	// (mean 1) that crawlsched's crawler learnt from Last-Modified times.
	NewsShape   []float64 `json:"news_shape_learnt,omitempty"`
	Interrupted bool      `json:"interrupted"`
	// TimedOut: the machine was too busy to finish within 3x the duration.
	TimedOut    bool    `json:"timed_out,omitempty"`
	NoProbes    bool    `json:"no_probes,omitempty"`
	RealSeconds float64 `json:"real_seconds"`
	Hosts       []*Host `json:"hosts"`
	// Polite: some host has a Crawl-delay.
	Polite bool         `json:"polite"`
	Modes  []ModeResult `json:"modes"`
}

// Mode names, in table order.
const (
	nameUniform      = "uniform round robin"
	nameProportional = "proportional to change rate"
	nameStreaming    = "crawlsched Scheduler.NextAt"
	nameCrawlsched   = "crawlsched"
)

// Run starts the site and the crawlers, runs until the duration ends or
// ctx is cancelled (Ctrl-C), and measures what each crawler achieved.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	res, _, _, err := runFull(ctx, cfg)
	return res, err
}

// runFull is Run, also returning the site and crawlers (for tests).
func runFull(ctx context.Context, cfg Config) (*Result, *Site, []*Crawler, error) {
	simHours := cfg.Duration.Seconds() * cfg.Scale
	clock := &Clock{Scale: cfg.Scale}
	site := NewSite(SiteConfig{Pages: cfg.Pages, Horizon: simHours + 1, Seed: cfg.Seed, NewsShare: cfg.NewsShare,
		Hosts: cfg.Hosts, Tight: cfg.Tight, Budget: cfg.Budget}, clock)
	base, stop, err := site.Serve()
	if err != nil {
		return nil, nil, nil, err
	}
	defer stop()
	paths, err := fetchSitemap(ctx, base)
	if err != nil {
		return nil, nil, nil, err
	}
	lim, err := discoverHosts(ctx, paths)
	if err != nil {
		return nil, nil, nil, err
	}
	w, err := newCrew(cfg, site, clock, paths, lim, simHours)
	if err != nil {
		return nil, nil, nil, err
	}
	defer w.Close()

	// A hard bound on real time: a machine too busy to keep up slows the
	// run down (see SimTimeHeader) but never more than threefold.
	runCtx, cancel := context.WithTimeout(ctx, 3*cfg.Duration+10*time.Second)
	defer cancel()
	clock.Start = time.Now()
	runCrew(runCtx, cancel, cfg, site, clock, w.crawlers, simHours)

	// Measure up to where every crawler got (all of the run unless
	// interrupted).
	end := simHours
	for _, c := range w.crawlers {
		end = math.Min(end, c.Reached)
		if _, _, _, err := c.Stats(); err != nil {
			return nil, nil, nil, err
		}
	}
	res := &Result{Pages: len(paths), NewsPages: w.newsCount, Budget: cfg.Budget, Scale: cfg.Scale,
		SimHours: end, Seed: cfg.Seed, Interrupted: ctx.Err() != nil, NoProbes: cfg.NoProbes,
		TimedOut:    ctx.Err() == nil && runCtx.Err() != nil,
		RealSeconds: time.Since(clock.Start).Seconds(), Hosts: site.Hosts, Polite: lim.Polite()}
	if err := measureCrew(site, w, res); err != nil {
		return nil, nil, nil, err
	}
	return res, site, w.crawlers, nil
}

// crew is the crawlers of a run and the modes whose plans the theory
// evaluates (stream is nil without --streaming or host limits).
type crew struct {
	crawlers  []*Crawler
	prop      *Proportional
	cs        *Crawlsched
	stream    *Streaming
	newsCount int
}

func (w *crew) Close() {
	w.prop.Close()
	w.cs.Close()
	w.stream.Close()
}

// newCrew makes the crawlers of a run over the sitemap's paths.
func newCrew(cfg Config, site *Site, clock *Clock, paths []string, lim *Limiter, simHours float64) (*crew, error) {
	w := &crew{}
	news := make([]bool, len(paths))
	for i, p := range paths {
		news[i] = strings.Contains(p, "/news/")
		if news[i] {
			w.newsCount++
		}
	}
	// An average full-page crawl takes 1/budget: 80% politeness delay,
	// 20% transfer at the bandwidth limit (see Politeness).
	meanSize := 0.0
	for _, p := range site.Pages {
		meanSize += float64(p.Size+headerBytes) / float64(len(site.Pages))
	}
	polite := Politeness{Delay: 0.8 / cfg.Budget, Bandwidth: meanSize / (0.2 / cfg.Budget)}

	prior := cfg.Budget / float64(len(paths))
	var err error
	if w.prop, err = NewProportional(lim, prior); err != nil {
		return nil, err
	}
	if w.cs, err = NewCrawlsched(lim, news, !cfg.NoProbes, prior); err != nil {
		w.prop.Close()
		return nil, err
	}
	w.crawlers = []*Crawler{
		NewCrawler(nameUniform, NewUniform(lim), paths, lim, clock, polite),
		NewCrawler(nameProportional, w.prop, paths, lim, clock, polite),
	}
	if lim.Polite() && cfg.Streaming {
		w.stream = NewStreaming(lim, prior)
		w.crawlers = append(w.crawlers, NewCrawler(nameStreaming, w.stream, paths, lim, clock, polite))
	}
	w.crawlers = append(w.crawlers, NewCrawler(nameCrawlsched, w.cs, paths, lim, clock, polite))
	// Bound the requests: three times the budget (a crawler makes at most
	// 1.25 times the budget: only 304s are cheaper than a full page).
	for _, c := range w.crawlers {
		c.MaxRequests = int64(3*cfg.Budget*simHours) + 100
	}
	return w, nil
}

// runCrew runs the crawlers side by side until they reach simHours or ctx
// ends (cancel: one broken crawler stops the comparison), printing
// progress.
func runCrew(ctx context.Context, cancel func(), cfg Config, site *Site, clock *Clock, crawlers []*Crawler, simHours float64) {
	var wg sync.WaitGroup
	for _, c := range crawlers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Run(ctx, simHours)
			if _, _, _, err := c.Stats(); err != nil {
				cancel()
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	progress(cfg, site, crawlers, clock, simHours, done)
	<-done
}

// measureCrew fills res.Modes, the gain and the learnt news shape, over
// [res.WindowFrom, res.SimHours].
func measureCrew(site *Site, w *crew, res *Result) error {
	end := res.SimHours
	for _, p := range site.Pages {
		res.TotalRate += p.Rate
	}
	// Measure after a warm-up: the first sweep (N / budget hours) fills the
	// index and the learning crawlers' first plans use few observations
	// (crawlsched's golden-ratio cycle, 8N to 13N crawls, keeps its first
	// plan until about a third of a default run); the window is the run
	// after max(2 sweeps, a third of it).
	res.WindowFrom = math.Min(math.Max(2*float64(res.Pages)/res.Budget, end/3), end/2)
	bin := math.Max(end/120, 0.05)
	for _, c := range w.crawlers {
		m, s := Measure(site, c.Log, res.WindowFrom, end, bin)
		r := ModeResult{Name: c.Name, Measured: m, Series: s, Requests: c.Requests,
			NotModified: c.NotModified, Bytes: c.Bytes, Hosts: site.Use(c.UserAgent(), res.WindowFrom, end)}
		if c.Reached > 0 {
			r.IdleShare = c.Idle / c.Reached
			r.RequestsPerHour = float64(c.Requests) / c.Reached
			r.MBPerHour = float64(c.Bytes) / c.Reached / 1e6
		}
		if len(c.CrawlTimes) > 0 {
			if err := addTheory(site, c, &r, w, res); err != nil {
				return err
			}
		}
		res.Modes = append(res.Modes, r)
	}
	uni, best := res.Modes[0], res.Modes[len(res.Modes)-1]
	res.Gain = best.Measured.Freshness - uni.Measured.Freshness
	res.GainStdErr = DiffStdErr(uni.Series, best.Series, res.WindowFrom, end)
	if w.cs.probes != nil {
		res.NewsShape = w.cs.probes.Shape
	}
	return nil
}

// addTheory fills the mode's predicted values (true rates, the mode's own
// crawl times).
func addTheory(site *Site, c *Crawler, r *ModeResult, w *crew, res *Result) error {
	pred, err := NewPredictor(site, c.Slots, c.CrawlTimes)
	if err != nil {
		return err
	}
	defer pred.Close()
	var f, plan []float64
	switch c.Name {
	case nameUniform:
		if f = pred.Uniform(); res.Polite {
			f = pred.WaterFill(f)
		}
	case nameProportional:
		if f, plan = pred.Proportional(), w.prop.Freq; res.Polite {
			f, plan = pred.WaterFill(f), pred.WaterFill(plan)
		}
	case nameStreaming:
		if f, err = pred.Optimal(); err != nil {
			return err
		}
		if plan, err = w.stream.Plan(); err != nil {
			return err
		}
		if f = pred.WaterFill(f); plan != nil {
			plan = pred.WaterFill(plan)
		}
	case nameCrawlsched:
		if res.Polite {
			f, err = pred.Polite()
		} else {
			f, err = pred.Optimal()
		}
		if err != nil {
			return err
		}
		if plan, err = w.cs.Plan(); err != nil {
			return err
		}
		if plan != nil && !res.Polite {
			// The scheduler realises its plan with a golden-ratio cycle
			// of F >= 8N crawls: the exact value of that cycle.
			t, err := pred.Golden(plan)
			if err != nil {
				return err
			}
			r.PlanTheory = &t
			plan = nil
		}
		lb, err := pred.fresh.LowerBound()
		if err != nil {
			return err
		}
		res.Bound = 1 - lb/float64(len(site.Pages))
	}
	if r.Theory, err = pred.Eval(f); err != nil {
		return err
	}
	if plan != nil {
		t, err := pred.Eval(plan)
		if err != nil {
			return err
		}
		r.PlanTheory = &t
	}
	return nil
}

// progress prints a line every few real seconds until done.
func progress(cfg Config, site *Site, crawlers []*Crawler, clock *Clock, simHours float64, done <-chan struct{}) {
	if cfg.Progress == nil {
		return
	}
	tight := 0
	for _, h := range site.Hosts {
		if h.Tight {
			tight++
		}
	}
	where := "on 127.0.0.1"
	if len(site.Hosts) > 1 {
		where = fmt.Sprintf("on %d hosts (127.0.0.1 to 127.0.0.%d, %d with a tight Crawl-delay)", len(site.Hosts), len(site.Hosts), tight)
	}
	fmt.Fprintf(cfg.Progress, "site: %d pages %s, 1 real second = %g simulated hours; running %s (%.0f simulated hours). Ctrl-C stops early.\n",
		len(site.Pages), where, cfg.Scale, cfg.Duration, simHours)
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
			t := math.Min(clock.Now(), simHours)
			var b strings.Builder
			fmt.Fprintf(&b, "  %5.1f/%.0f h  fresh now:", t, simHours)
			for _, c := range crawlers {
				req, _, _, _ := c.Stats()
				c.mu.Lock()
				at := c.Reached // a crawler may trail the clock on a busy machine
				c.mu.Unlock()
				fmt.Fprintf(&b, "  %s %4.1f%% (%d req)", shortName(c.Name), 100*c.FreshNow(site, at), req)
			}
			fmt.Fprintln(cfg.Progress, b.String())
		}
	}
}

func shortName(n string) string {
	switch n {
	case nameUniform:
		return "uniform"
	case nameProportional:
		return "proportional"
	case nameStreaming:
		return "scheduler"
	}
	return n
}
