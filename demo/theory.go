package main

import (
	"sort"

	crawlsched "github.com/crawlsched/crawlsched/bindings/go"
)

// Theory is what crawlsched's model (Coffman, Liu, Weber) predicts for a
// mode's frequencies under the TRUE change rates: Poisson changes at each
// page's mean rate, crawls taking independent times distributed as the
// mode's own measured crawl times, each page's crawls evenly spread.
type Theory struct {
	Freshness     float64 `json:"freshness"`
	MissedChanges float64 `json:"missed_changes"`
}

// Predictor evaluates frequencies against the true rates.
type Predictor struct {
	rates []float64
	total float64
	host  []int                      // per page (the site's truth)
	limit []float64                  // per host: requests per hour the crawler can use (effectiveLimits)
	meanX float64                    // mean crawl slot (hours)
	fresh *crawlsched.FreshnessModel // weights 1: sum r_i = N (1 - freshness)
	churn *crawlsched.FreshnessModel // weights mu_i: sum mu_i r_i = missed changes per hour
}

// NewPredictor builds the two models for crawl slots `slots` (hours, the
// time from one request to the next: crawl times plus any wait for a
// host) and the hosts' limits as a crawler with crawl times `crawl` can
// use them.
func NewPredictor(site *Site, slots, crawl []float64) (*Predictor, error) {
	p := &Predictor{}
	for _, pg := range site.Pages {
		p.rates = append(p.rates, pg.Rate)
		p.total += pg.Rate
		p.host = append(p.host, pg.Host)
	}
	var delay []float64
	for _, h := range site.Hosts {
		delay = append(delay, h.Delay)
	}
	p.limit = effectiveLimits(delay, crawl)
	// 1,024 quantiles of the crawl slots: the empirical distribution to
	// well within the precision of the measurement, at a bounded cost.
	q := quantiles(slots, 1024)
	p.meanX = mean(q)
	access, err := crawlsched.NewEmpirical(q)
	if err != nil {
		return nil, err
	}
	defer access.Close()
	if p.fresh, err = crawlsched.NewFreshnessModel(access, p.rates, ones(len(p.rates))); err != nil {
		return nil, err
	}
	if p.churn, err = crawlsched.NewFreshnessModel(access, p.rates, nil); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

func (p *Predictor) Close() {
	p.fresh.Close()
	p.churn.Close()
}

// Eval is the theory for frequencies f (summing to 1), evenly spaced
// (Theorem 3.3; exact for round robin).
func (p *Predictor) Eval(f []float64) (Theory, error) {
	stale, err := p.fresh.Cost(f)
	if err != nil {
		return Theory{}, err
	}
	missed, err := p.churn.Cost(f)
	if err != nil {
		return Theory{}, err
	}
	n := float64(len(p.rates))
	// With c_i = mu_i, sum mu_i r_i is the rate of changes overwritten
	// before a crawl sees them; divided by the total change rate, the
	// fraction missed.
	return Theory{Freshness: 1 - stale/n, MissedChanges: missed / p.total}, nil
}

// Uniform is 1/N each.
func (p *Predictor) Uniform() []float64 {
	f := make([]float64, len(p.rates))
	for i := range f {
		f[i] = 1 / float64(len(f))
	}
	return f
}

// Proportional is f_i proportional to the true rate.
func (p *Predictor) Proportional() []float64 {
	f := make([]float64, len(p.rates))
	for i, r := range p.rates {
		f[i] = r / p.total
	}
	return f
}

// Optimal is crawlsched's max-freshness frequencies for the true rates.
func (p *Predictor) Optimal() ([]float64, error) { return p.fresh.OptimalFrequencies() }

// Golden is the exact theory (Lemma 3.1) of the golden-ratio cycle that
// crawlsched's scheduler builds for frequencies f: F = the smallest
// Fibonacci number >= 8N crawls, f_i F rounded (at least one each).
func (p *Predictor) Golden(f []float64) (Theory, error) {
	total, err := crawlsched.FibonacciAtLeast(uint64(8 * len(f)))
	if err != nil {
		return Theory{}, err
	}
	counts, err := crawlsched.IntegerCounts(f, total, true)
	if err != nil {
		return Theory{}, err
	}
	seq, err := crawlsched.GoldenRatioSequence(counts)
	if err != nil {
		return Theory{}, err
	}
	stale, err := p.fresh.CyclicCost(seq)
	if err != nil {
		return Theory{}, err
	}
	missed, err := p.churn.CyclicCost(seq)
	if err != nil {
		return Theory{}, err
	}
	return Theory{Freshness: 1 - stale/float64(len(f)), MissedChanges: missed / p.total}, nil
}

// WaterFill is the frequencies of a crawler that wants shares in
// proportion to w but follows the hosts' limits by serving a host that
// is behind whenever it is ready (Uniform, Proportional): a host whose
// pages want more than its limit allows (share κ_h = limit_h E[X]) gets
// exactly κ_h, split in proportion to w, and the other hosts share the
// rest in proportion to w.
func (p *Predictor) WaterFill(w []float64) []float64 {
	wh := make([]float64, len(p.limit))
	for i, x := range w {
		wh[p.host[i]] += x
	}
	// Hosts by κ_h / W_h: the first ones saturate while the common scale
	// s = remaining share / remaining weight exceeds theirs.
	order := make([]int, 0, len(wh))
	for h := range wh {
		if wh[h] > 0 {
			order = append(order, h)
		}
	}
	ratio := func(h int) float64 { return p.limit[h] * p.meanX / wh[h] }
	sort.Slice(order, func(a, b int) bool { return ratio(order[a]) < ratio(order[b]) })
	left, wleft := 1.0, 0.0
	for _, h := range order {
		wleft += wh[h]
	}
	scale := make([]float64, len(wh))
	for _, h := range order {
		if s := left / wleft; ratio(h) < s {
			scale[h] = ratio(h)
			left -= p.limit[h] * p.meanX
			wleft -= wh[h]
			continue
		}
		break
	}
	for _, h := range order {
		if scale[h] == 0 {
			scale[h] = left / wleft
		}
	}
	f := make([]float64, len(w))
	for i, x := range w {
		f[i] = x * scale[p.host[i]]
	}
	return f
}

// Polite is crawlsched's optimal frequencies under the hosts' limits for
// the true rates (FreshnessModel.PoliteFrequencies, evenly spaced).
func (p *Predictor) Polite() ([]float64, error) {
	plan, err := p.fresh.PoliteFrequencies(hostIDs(p.host), p.limit, crawlsched.PoliteEvenlySpaced, false, nil)
	if err != nil {
		return nil, err
	}
	return plan.Frequencies, nil
}
