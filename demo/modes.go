package main

import (
	"container/heap"
	"fmt"
	"math"
	"sort"

	crawlsched "github.com/crawlsched/crawlsched/bindings/go"
)

// Mode decides which page a crawler fetches next and learns from what it
// fetched. Modes only ever see what a crawler sees: the sitemap, robots.txt,
// response codes, ETags, Last-Modified and its own crawl times.
type Mode interface {
	// Next is the page to fetch at simulated time now, on a host that lim
	// says is ready, or -1 and the time until a host is.
	Next(now float64, lim *Limiter) (page int, wait float64, err error)
	// Observe reports a fetch of page at now; interval is the time since the
	// previous fetch of the page (0 for the first), changed whether its ETag
	// moved, lastMod its Last-Modified (simulated hours) and crawlTime the
	// time the fetch occupied the crawler (politeness delay + transfer).
	Observe(page int, now, interval float64, changed bool, lastMod, crawlTime float64) error
	// Close releases library handles.
	Close()
}

// Uniform is round robin: the least recently crawled page among the ready
// hosts (sitemap order first). With every host ready this is round robin
// in sitemap order; a host in its delay keeps its turn, so a tight host's
// pages take turns at the host's limit and the other pages share the
// rest of the crawls equally.
type Uniform struct {
	queues [][]int // per host: its pages, least recently crawled first
	turn   []int   // per page: its place in the round robin
	seq    int
}

func NewUniform(lim *Limiter) *Uniform {
	u := &Uniform{queues: make([][]int, lim.Hosts()), turn: make([]int, len(lim.Host)), seq: len(lim.Host)}
	for i, h := range lim.Host {
		u.queues[h] = append(u.queues[h], i)
		u.turn[i] = i
	}
	return u
}

func (u *Uniform) Next(now float64, lim *Limiter) (int, float64, error) {
	best := -1
	for h, q := range u.queues {
		if len(q) > 0 && lim.Ready(h, now) && (best < 0 || u.turn[q[0]] < u.turn[u.queues[best][0]]) {
			best = h
		}
	}
	if best < 0 {
		return -1, lim.NextFree() - now, nil
	}
	q := u.queues[best]
	p := q[0]
	u.queues[best] = append(q[1:], p)
	u.turn[p] = u.seq
	u.seq++
	return p, 0, nil
}

func (u *Uniform) Observe(int, float64, float64, bool, float64, float64) error { return nil }
func (u *Uniform) Close()                                                      {}

// The change-rate estimators start from a neutral prior: every page is
// assumed to change about as often as the budget lets the crawler visit it
// (budget / pages), worth one such change of observation (the weight
// crawlsched's scheduler gives its priors). A prior of "one change a day"
// worth a day would hold the estimate of a page that changed at every one
// of 10 visits 3.5 hours apart at 0.3/hour; this one lets it reach 0.8.
// The crawlers know nothing else about the pages.

// Proportional crawls each page in proportion to its change rate as
// learnt by crawlsched's estimators, served by a Stride. Every n crawls
// the frequencies follow the estimates.
type Proportional struct {
	n      int
	est    []*crawlsched.Estimator
	stride *Stride
	picks  int
	// Freq is the last plan (per page, summing to 1).
	Freq []float64
}

func NewProportional(lim *Limiter, priorRate float64) (*Proportional, error) {
	n := len(lim.Host)
	m := &Proportional{n: n, stride: NewStride(lim)}
	for i := 0; i < n; i++ {
		e, err := crawlsched.NewEstimatorWithPrior(priorRate, 1/priorRate)
		if err != nil {
			m.Close()
			return nil, err
		}
		m.est = append(m.est, e)
	}
	return m, nil
}

func (m *Proportional) Close() {
	for _, e := range m.est {
		e.Close()
	}
}

func (m *Proportional) Next(now float64, lim *Limiter) (int, float64, error) {
	if m.picks >= m.n {
		if err := m.replan(); err != nil {
			return 0, 0, err
		}
	}
	p, wait := m.stride.Next(now, lim)
	if p >= 0 {
		m.picks++
	}
	return p, wait, nil
}

func (m *Proportional) Observe(page int, _, interval float64, changed bool, _, _ float64) error {
	if interval <= 0 {
		return nil // first visit: nothing to learn about the rate yet
	}
	return m.est[page].Observe(interval, changed)
}

// replan sets f_i proportional to the estimates.
func (m *Proportional) replan() error {
	m.picks = 0
	rates, err := estimates(m.est)
	if err != nil {
		return err
	}
	total := 0.0
	for _, r := range rates {
		total += r
	}
	for i := range rates {
		rates[i] /= total
	}
	m.stride.SetFreq(rates)
	m.Freq = rates
	return nil
}

func estimates(est []*crawlsched.Estimator) ([]float64, error) {
	rates := make([]float64, len(est))
	for i, e := range est {
		r, err := e.Estimate()
		if err != nil {
			return nil, err
		}
		rates[i] = r
	}
	return rates, nil
}

// Stride serves frequencies f_i with each page's crawls evenly spaced (a
// stride scheduler: the page with the earliest virtual due time among the
// ready hosts goes next, its due time moving 1/f_i later). A host that
// cannot take its pages' share falls behind and is served whenever ready;
// the other hosts share the rest of the crawls in proportion to f. New
// frequencies keep each page's phase (its remaining wait is rescaled;
// an overdue page stays as overdue).
type Stride struct {
	due  []dueHeap // per host
	freq []float64
	now  float64 // virtual time of the last crawl
}

// NewStride starts with equal frequencies: one sweep in sitemap order.
func NewStride(lim *Limiter) *Stride {
	n := len(lim.Host)
	s := &Stride{freq: make([]float64, n), due: make([]dueHeap, lim.Hosts())}
	for i, h := range lim.Host {
		s.freq[i] = 1 / float64(n)
		s.due[h] = append(s.due[h], due{t: float64(i) + 0.5, page: i})
	}
	for h := range s.due {
		heap.Init(&s.due[h])
	}
	return s
}

// Next is the page to crawl at now, or -1 and the wait until a host with
// pages to crawl is ready.
func (s *Stride) Next(now float64, lim *Limiter) (int, float64) {
	best := -1
	for h, q := range s.due {
		if len(q) > 0 && !math.IsInf(q[0].t, 1) && lim.Ready(h, now) && (best < 0 || q[0].t < s.due[best][0].t) {
			best = h
		}
	}
	if best < 0 {
		return -1, lim.NextFree() - now
	}
	q := s.due[best]
	d := q[0]
	s.now = math.Max(s.now, d.t)
	q[0].t += 1 / s.freq[d.page]
	heap.Fix(&s.due[best], 0)
	return d.page, 0
}

// SetFreq serves f from now on (f_i = 0: page i is not crawled).
func (s *Stride) SetFreq(f []float64) {
	for h := range s.due {
		for k := range s.due[h] {
			d := &s.due[h][k]
			old, next := s.freq[d.page], f[d.page]
			switch {
			case next <= 0:
				d.t = math.Inf(1)
			case old <= 0:
				d.t = s.now + 0.5/next
			case d.t > s.now:
				d.t = s.now + (d.t-s.now)*old/next
			}
			// An overdue page (a host behind its share) keeps its due
			// time: its host serves its pages oldest first. (Moving them
			// all to now would tie them, and a host that cannot catch up
			// before the next plan would serve the same first ones again
			// and again while the others starve.)
			s.freq[d.page] = next
		}
		heap.Init(&s.due[h])
	}
}

type due struct {
	t    float64
	page int
}

type dueHeap []due

func (q dueHeap) Len() int           { return len(q) }
func (q dueHeap) Less(i, j int) bool { return q[i].t < q[j].t }
func (q dueHeap) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *dueHeap) Push(x any)        { *q = append(*q, x.(due)) }
func (q *dueHeap) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// Crawlsched is crawlsched's streaming Scheduler in golden-ratio mode,
// maximising the fraction of fresh pages (every page weighs 1). It starts
// with a discovery sweep (every page once, by Uniform's rule), which also
// measures the crawl times that become the scheduler's access-time
// distribution.
//
// On one host without limits, each fetch is reported to the scheduler,
// whose per-page estimators learn the change rates; the scheduler re-plans
// its optimal frequencies at each golden-ratio cycle (8N to 13N crawls).
// Pages with a daily pattern (the sitemap's /news/ section) are crawled at
// times planned by the Prober instead: the scheduler's slots for them are
// skipped, and the prober spends the same share of crawls at the best
// times of day.
//
// With host limits (robots.txt Crawl-delay) the plan is the optimum under
// the hosts' limits (FreshnessModel.PoliteFrequencies, see politePlan) for
// the rates learnt by one estimator per page, redone every N crawls and
// served by a Stride, as Proportional's plan is: the two differ only in
// their plans. (Not by the Scheduler: it plans for itself, without the
// limits, and a new one per plan would restart every page's phase, so a
// page with a period longer than the time between plans would never be
// crawled.) No probe planning then.
type Crawlsched struct {
	n      int
	prior  float64
	sched  *crawlsched.Scheduler
	sweep  int
	uni    *Uniform
	crawl  []float64
	probes *Prober
	// Pages the prober currently takes over, and when it last planned.
	probed   map[int]bool
	probedAt float64
	// Sum and count of all crawl times (crawls per day for the prober).
	crawlSum float64
	crawlN   int
	// With host limits: the hosts, one estimator per page, and the picks
	// since the plan was made.
	polite *Limiter
	est    []*crawlsched.Estimator
	stride *Stride
	picks  int
}

// probeReplan is how often (simulated hours) probes are re-planned.
const probeReplan = 6.0

func NewCrawlsched(lim *Limiter, news []bool, withProbes bool, priorRate float64) (*Crawlsched, error) {
	n := len(lim.Host)
	m := &Crawlsched{n: n, prior: priorRate, probed: map[int]bool{}, probedAt: math.Inf(-1), uni: NewUniform(lim)}
	if !lim.Polite() {
		if withProbes {
			m.probes = NewProber(news)
		}
		return m, nil
	}
	m.polite = lim
	for i := 0; i < n; i++ {
		e, err := crawlsched.NewEstimatorWithPrior(priorRate, 1/priorRate)
		if err != nil {
			m.Close()
			return nil, err
		}
		m.est = append(m.est, e)
	}
	return m, nil
}

func (m *Crawlsched) Close() {
	m.sched.Close()
	for _, e := range m.est {
		e.Close()
	}
}

func (m *Crawlsched) Next(now float64, lim *Limiter) (int, float64, error) {
	if m.sweep < m.n {
		p, wait, err := m.uni.Next(now, lim)
		if p >= 0 {
			m.sweep++
		}
		return p, wait, err
	}
	if m.polite != nil {
		return m.nextPolite(now, lim)
	}
	if m.sched == nil {
		if err := m.start(); err != nil {
			return 0, 0, err
		}
	}
	if m.probes != nil {
		if now-m.probedAt >= probeReplan {
			if err := m.planProbes(now); err != nil {
				return 0, 0, err
			}
		}
		if p, ok := m.probes.Due(now); ok {
			return p, 0, nil
		}
	}
	// Skip the slots of pages the prober has taken (bounded: some page is
	// always left to the scheduler, see planProbes).
	for k := 0; ; k++ {
		id, err := m.sched.Next()
		if err != nil {
			return 0, 0, err
		}
		if !m.probed[int(id)] || k > 20*m.n {
			return int(id), 0, nil
		}
	}
}

// nextPolite is the Stride's pick at now, or the wait until a host is
// ready; the plan is redone every N picks.
func (m *Crawlsched) nextPolite(now float64, lim *Limiter) (int, float64, error) {
	if m.stride == nil || m.picks >= m.n {
		_, plan, err := m.politePlan()
		if err != nil {
			return 0, 0, err
		}
		if m.stride == nil {
			m.stride = NewStride(lim)
		}
		m.stride.SetFreq(plan.Frequencies)
		m.picks = 0
	}
	p, wait := m.stride.Next(now, lim)
	if p >= 0 {
		m.picks++
	}
	return p, wait, nil
}

// politePlan is the optimal plan under the hosts' limits for the learnt
// rates and the crawl times measured so far.
func (m *Crawlsched) politePlan() ([]float64, *crawlsched.PolitePlan, error) {
	rates, err := estimates(m.est)
	if err != nil {
		return nil, nil, err
	}
	access, err := crawlTimeDist(m.crawl)
	if err != nil {
		return nil, nil, err
	}
	defer access.Close()
	model, err := crawlsched.NewFreshnessModel(access, rates, ones(m.n))
	if err != nil {
		return nil, nil, err
	}
	defer model.Close()
	plan, err := model.PoliteFrequencies(hostIDs(m.polite.Host), effectiveLimits(m.polite.Delay, m.crawl),
		crawlsched.PoliteEvenlySpaced, false, nil)
	return rates, plan, err
}

// effectiveLimits are the hosts' limits as a one-connection crawler with
// crawl times x can use them (requests per hour; +Inf: no delay): after
// its delay a host waits for the crawl in progress to end, on average
// E[X^2]/(2 E[X]) (the residual of a length-biased crawl), so it is asked
// every d_h + E[X^2]/(2 E[X]) at best.
func effectiveLimits(delay, x []float64) []float64 {
	var m1, m2 float64
	for _, v := range x {
		m1 += v
		m2 += v * v
	}
	residual := m2 / (2 * m1)
	out := make([]float64, len(delay))
	for h, d := range delay {
		out[h] = math.Inf(1)
		if d > 0 {
			out[h] = 1 / (d + residual)
		}
	}
	return out
}

func hostIDs(host []int) []uint32 {
	out := make([]uint32, len(host))
	for i, h := range host {
		out[i] = uint32(h)
	}
	return out
}

// start builds the scheduler once the sweep has measured crawl times.
func (m *Crawlsched) start() error {
	access, err := crawlTimeDist(m.crawl)
	if err != nil {
		return fmt.Errorf("crawl-time distribution: %w", err)
	}
	defer access.Close()
	if m.sched, err = crawlsched.NewScheduler(access, crawlsched.GoldenRatio); err != nil {
		return err
	}
	for i := 0; i < m.n; i++ {
		if err := m.sched.AddWeightedPage(uint64(i), m.prior, 1); err != nil {
			return err
		}
	}
	return nil
}

func (m *Crawlsched) Observe(page int, now, interval float64, changed bool, lastMod, crawlTime float64) error {
	if m.sched == nil || m.polite != nil {
		m.crawl = append(m.crawl, crawlTime)
	}
	m.crawlSum += crawlTime
	m.crawlN++
	if m.probes != nil {
		m.probes.Observe(page, lastMod)
	}
	switch {
	case interval <= 0:
		return nil // a first visit: nothing to learn yet
	case m.polite != nil:
		return m.est[page].Observe(interval, changed)
	case m.sched == nil:
		return nil // the sweep
	}
	return m.sched.Observe(uint64(page), interval, changed)
}

// planProbes gives the prober the news pages' current optimal shares.
func (m *Crawlsched) planProbes(now float64) error {
	m.probedAt = now
	f, err := m.Plan()
	if err != nil {
		return err
	}
	taken, err := m.probes.Plan(now, f, m.crawlSum/float64(m.crawlN))
	if err != nil {
		return err
	}
	if len(taken) >= m.n {
		taken = map[int]bool{}
	}
	m.probed = taken
	return nil
}

// Plan is the optimal frequency of every page for the current rates (with
// host limits: under them; otherwise the scheduler's rates, what its next
// cycle will use): one model for all pages, rather
// than Scheduler.Frequency page by page, which recomputes all frequencies
// on each call while estimates are pending.
func (m *Crawlsched) Plan() ([]float64, error) {
	if m.polite != nil {
		if m.stride == nil {
			return nil, nil
		}
		_, plan, err := m.politePlan()
		if err != nil {
			return nil, err
		}
		return plan.Frequencies, nil
	}
	if m.sched == nil {
		return nil, nil
	}
	rates := make([]float64, m.n)
	for i := range rates {
		r, err := m.sched.ChangeRate(uint64(i))
		if err != nil {
			return nil, err
		}
		rates[i] = r
	}
	access, err := crawlTimeDist(m.crawl)
	if err != nil {
		return nil, err
	}
	defer access.Close()
	model, err := crawlsched.NewFreshnessModel(access, rates, ones(m.n))
	if err != nil {
		return nil, err
	}
	defer model.Close()
	return model.OptimalFrequencies()
}

func ones(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
	}
	return w
}

// crawlTimeDist is the empirical distribution of 64 quantiles of the
// measured crawl times: as good as all of them for E[exp(-mu X)], and the
// optimal-frequency computation, which evaluates it for every page many
// times, stays in milliseconds (with 1,000 raw samples it took about half a
// real second, three simulated hours of a stalled crawler).
func crawlTimeDist(x []float64) (*crawlsched.Dist, error) {
	return crawlsched.NewEmpirical(quantiles(x, 64))
}

// quantiles are k evenly spaced quantiles (midpoints) of x.
func quantiles(x []float64, k int) []float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	if len(s) <= k {
		return s
	}
	q := make([]float64, k)
	for i := range q {
		q[i] = s[int((float64(i)+0.5)*float64(len(s))/float64(k))]
	}
	return q
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// Prober schedules the pages with a daily pattern (the sitemap's /news/
// section) at planned times of day. The crawler is told only which pages
// are news pages; it learns the shape of their daily update intensity from
// the Last-Modified times it sees (pooled over all news pages, folded on
// the day) and plans each page's probes with crawlsched's probe planner
// (Eckstein, Gal, Reiner), the number of probes per day coming from the
// page's optimal frequency.
type Prober struct {
	news    []bool
	lastMod []float64
	times   []float64 // distinct Last-Modified times seen (simulated hours)
	queue   probeQueue
	plans   map[int][]float64 // probes per day -> times of day
	// Shape is the hourly update intensity (mean 1) last planned with.
	Shape []float64
}

// Minimum Last-Modified times before the learnt shape replaces a flat one.
const minShapeSamples = 30

func NewProber(news []bool) *Prober {
	lm := make([]float64, len(news))
	for i := range lm {
		lm[i] = -1
	}
	return &Prober{news: news, lastMod: lm}
}

// Observe records a news page's Last-Modified time.
func (p *Prober) Observe(page int, lastMod float64) {
	if !p.news[page] || lastMod <= 0 || lastMod == p.lastMod[page] {
		return
	}
	p.lastMod[page] = lastMod
	p.times = append(p.times, lastMod)
}

// Due pops a probe whose time has come.
func (p *Prober) Due(now float64) (int, bool) {
	if len(p.queue) > 0 && p.queue[0].t <= now {
		return heap.Pop(&p.queue).(probe).page, true
	}
	return 0, false
}

// Plan replaces the probe queue for the next day: news pages whose optimal
// frequency gives at least one crawl a day get round(probes/day) probes at
// the planned times of day. It returns the pages it took over.
func (p *Prober) Plan(now float64, f []float64, meanCrawl float64) (map[int]bool, error) {
	shape, err := p.learnShape(now)
	if err != nil {
		return nil, err
	}
	p.Shape = shape
	p.plans = map[int][]float64{}
	lambda := crawlsched.PiecewiseConstant{Breaks: hourBreaks(), Values: shape, Periodic: true}
	importance := crawlsched.PiecewiseConstant{Breaks: []float64{0, 24}, Values: []float64{1}, Periodic: true}
	profile, err := crawlsched.NewProbeProfile(lambda, importance, 24)
	if err != nil {
		return nil, err
	}
	defer profile.Close()
	// Candidate times every 10 simulated minutes.
	planner, err := crawlsched.NewProbePlanner(profile, 144, 0)
	if err != nil {
		return nil, err
	}
	defer planner.Close()
	taken := map[int]bool{}
	p.queue = p.queue[:0]
	day := math.Floor(now / 24)
	for i, isNews := range p.news {
		perDay := math.Round(f[i] * 24 / meanCrawl)
		if !isNews || perDay < 1 {
			continue
		}
		n := int(math.Min(perDay, 144))
		plan, ok := p.plans[n]
		if !ok {
			if plan, _, err = planner.Plan(n, crawlsched.ProbeLagrangian); err != nil {
				return nil, err
			}
			p.plans[n] = plan
		}
		taken[i] = true
		for d := day; d <= day+1; d++ {
			for _, h := range plan {
				if t := 24*d + h; t > now && t <= now+24 {
					p.queue = append(p.queue, probe{t: t, page: i})
				}
			}
		}
	}
	heap.Init(&p.queue)
	return taken, nil
}

// learnShape estimates the hourly intensity of news updates from the
// Last-Modified times seen so far, normalised to mean 1 (only the shape
// matters for where probes go); flat until enough times are seen.
func (p *Prober) learnShape(now float64) ([]float64, error) {
	if len(p.times) < minShapeSamples || now < 24 {
		return ones(24), nil
	}
	times := append([]float64(nil), p.times...)
	sort.Float64s(times)
	// (Last-Modified never exceeds the time of the fetch; a safety net.)
	now = math.Max(now, times[len(times)-1])
	// Smoothing: 2 hours of pseudo-exposure at the overall rate per hour
	// piece, so an hour with no update seen is unlikely, not impossible.
	est, err := crawlsched.EstimateIntensity(times, now, hourBreaks(), true, 2)
	if err != nil {
		return nil, err
	}
	m := mean(est)
	if !(m > 0) {
		return ones(24), nil
	}
	for i := range est {
		est[i] /= m
	}
	return est, nil
}

func hourBreaks() []float64 {
	b := make([]float64, 25)
	for i := range b {
		b[i] = float64(i)
	}
	return b
}

type probe struct {
	t    float64
	page int
}

type probeQueue []probe

func (q probeQueue) Len() int           { return len(q) }
func (q probeQueue) Less(i, j int) bool { return q[i].t < q[j].t }
func (q probeQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *probeQueue) Push(x any)        { *q = append(*q, x.(probe)) }
func (q *probeQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// Streaming is crawlsched's streaming Scheduler as a crawler would use it
// with host limits (only on a site with them): after the same sweep as
// Crawlsched, the scheduler (golden-ratio mode, weights 1, the sweep's
// crawl-time distribution) gets every page's host (SetHost) and each
// host's Crawl-delay (SetHostDelay), learns the rates from each fetch
// (Observe) and picks with NextAt, which never returns a host in its
// delay. It plans its frequencies without the limits: a host that cannot
// follow them is served whenever ready and the other hosts share the rest
// in proportion to their frequencies.
type Streaming struct {
	n     int
	prior float64
	lim   *Limiter
	uni   *Uniform
	sweep int
	crawl []float64
	sched *crawlsched.Scheduler
}

func NewStreaming(lim *Limiter, priorRate float64) *Streaming {
	return &Streaming{n: len(lim.Host), prior: priorRate, lim: lim, uni: NewUniform(lim)}
}

func (m *Streaming) Close() {
	if m != nil {
		m.sched.Close()
	}
}

func (m *Streaming) Next(now float64, lim *Limiter) (int, float64, error) {
	if m.sweep < m.n {
		p, wait, err := m.uni.Next(now, lim)
		if p >= 0 {
			m.sweep++
		}
		return p, wait, err
	}
	if m.sched == nil {
		if err := m.start(); err != nil {
			return 0, 0, err
		}
	}
	id, wait, ready, err := m.sched.NextAt(now)
	if err != nil || !ready {
		return -1, wait, err
	}
	return int(id), 0, nil
}

// start builds the scheduler once the sweep has measured crawl times.
func (m *Streaming) start() error {
	access, err := crawlTimeDist(m.crawl)
	if err != nil {
		return fmt.Errorf("crawl-time distribution: %w", err)
	}
	defer access.Close()
	if m.sched, err = crawlsched.NewScheduler(access, crawlsched.GoldenRatio); err != nil {
		return err
	}
	for i, h := range m.lim.Host {
		if err := m.sched.AddWeightedPage(uint64(i), m.prior, 1); err != nil {
			return err
		}
		if err := m.sched.SetHost(uint64(i), uint32(h)); err != nil {
			return err
		}
	}
	for h, d := range m.lim.Delay {
		if err := m.sched.SetHostDelay(uint32(h), d); err != nil {
			return err
		}
	}
	return nil
}

func (m *Streaming) Observe(page int, _, interval float64, changed bool, _, crawlTime float64) error {
	if m.sched == nil {
		m.crawl = append(m.crawl, crawlTime)
	}
	if interval <= 0 || m.sched == nil {
		return nil // a first visit or the sweep: nothing to learn yet
	}
	return m.sched.Observe(uint64(page), interval, changed)
}

// Plan is the scheduler's optimal frequencies (without the limits) for its
// current rates.
func (m *Streaming) Plan() ([]float64, error) {
	if m.sched == nil {
		return nil, nil
	}
	rates := make([]float64, m.n)
	for i := range rates {
		r, err := m.sched.ChangeRate(uint64(i))
		if err != nil {
			return nil, err
		}
		rates[i] = r
	}
	access, err := crawlTimeDist(m.crawl)
	if err != nil {
		return nil, err
	}
	defer access.Close()
	model, err := crawlsched.NewFreshnessModel(access, rates, ones(m.n))
	if err != nil {
		return nil, err
	}
	defer model.Close()
	return model.OptimalFrequencies()
}
