package crawlsched

// The shared test vectors (../testdata/vectors.json, format in
// ../testdata/README.md): every case replayed through this binding, every
// number compared exactly with what the Rust generator got from the C API.

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

type vcase struct {
	Name     string         `json:"name"`
	Kind     string         `json:"kind"`
	Input    map[string]any `json:"input"`
	Expected map[string]any `json:"expected"`
}

// vin reads a case's input; numbers stay json.Number so integers and
// doubles are both exact.
type vin map[string]any

func (v vin) obj(k string) vin {
	m, ok := v[k].(map[string]any)
	if !ok {
		panic(fmt.Sprintf("%s is not an object", k))
	}
	return vin(m)
}
func (v vin) null(k string) bool { return v[k] == nil }
func (v vin) f(k string) float64 {
	x, err := strconv.ParseFloat(string(v[k].(json.Number)), 64)
	if err != nil {
		panic(err)
	}
	return x
}
func (v vin) u(k string) uint64 {
	x, err := strconv.ParseUint(string(v[k].(json.Number)), 10, 64)
	if err != nil {
		panic(err)
	}
	return x
}
func (v vin) u32(k string) uint32 { return uint32(v.u(k)) }
func (v vin) s(k string) string   { return v[k].(string) }
func (v vin) b(k string) bool     { return v[k].(bool) }
func (v vin) list(k string) []any {
	return v[k].([]any)
}
func (v vin) objs(k string) []vin {
	var out []vin
	for _, x := range v.list(k) {
		out = append(out, vin(x.(map[string]any)))
	}
	return out
}
func (v vin) fs(k string) []float64 {
	if v[k] == nil {
		return nil
	}
	var out []float64
	for _, x := range v.list(k) {
		f, err := strconv.ParseFloat(string(x.(json.Number)), 64)
		if err != nil {
			panic(err)
		}
		out = append(out, f)
	}
	return out
}
func (v vin) us(k string) []uint64 {
	var out []uint64
	for _, x := range v.list(k) {
		n, err := strconv.ParseUint(string(x.(json.Number)), 10, 64)
		if err != nil {
			panic(err)
		}
		out = append(out, n)
	}
	return out
}
func (v vin) u32s(k string) []uint32 {
	var out []uint32
	for _, x := range v.us(k) {
		out = append(out, uint32(x))
	}
	return out
}

// runner closes every handle a case opened.
type runner struct{ open []io.Closer }

func (r *runner) keep(c io.Closer) { r.open = append(r.open, c) }
func (r *runner) close() {
	for _, c := range r.open {
		c.Close()
	}
}

func (r *runner) dist(v vin) (*Dist, error) {
	var d *Dist
	var err error
	switch v.s("type") {
	case "deterministic":
		d, err = NewDeterministic(v.f("value"))
	case "exponential":
		d, err = NewExponential(v.f("rate"))
	case "erlang":
		d, err = NewErlang(v.u32("k"), v.f("rate"))
	case "gamma":
		d, err = NewGamma(v.f("shape"), v.f("rate"))
	case "hyperexponential":
		d, err = NewHyperexponential(v.fs("probs"), v.fs("rates"))
	case "phase_type":
		d, err = NewPhaseType(v.fs("alpha"), v.fs("s"))
	case "coxian":
		d, err = NewCoxian(v.fs("rates"), v.fs("cont"))
	case "empirical":
		d, err = NewEmpirical(v.fs("samples"))
	case "aph2":
		d, err = FitAPH2(v.f("m1"), v.f("m2"), v.f("m3"))
	case "h2":
		d, err = FitH2(v.f("m1"), v.f("m2"), v.f("m3"))
	default:
		panic("unknown dist type " + v.s("type"))
	}
	if err == nil {
		r.keep(d)
	}
	return d, err
}

func (r *runner) bmap(v vin) (*BMAP, error) {
	var m *BMAP
	var err error
	switch v.s("type") {
	case "poisson":
		m, err = NewPoissonBMAP(v.f("rate"))
	case "matrices":
		m, err = NewBMAP(int(v.u("n")), v.fs("matrices"))
	case "fit":
		m, err = FitBMAP(v.f("mean"), v.f("variance"), v.f("lag1"), v.f("batch_mean"), v.u32("max_batch"))
	case "compose":
		robot, err2 := r.bmap(v.obj("robot"))
		if err2 != nil {
			return nil, err2
		}
		how := map[string]BMAPCompose{"independent": ComposeIndependent, "thinning": ComposeThinning, "scaled": ComposeScaled}[v.s("how")]
		m, err = robot.Compose(how, v.u32("active"), v.u32("total"), v.f("prob"))
	default:
		panic("unknown bmap type " + v.s("type"))
	}
	if err == nil {
		r.keep(m)
	}
	return m, err
}

func (r *runner) model(v vin) (*FreshnessModel, error) {
	access, err := r.dist(v.obj("access"))
	if err != nil {
		return nil, err
	}
	m, err := NewFreshnessModel(access, v.fs("change_rates"), v.fs("weights"))
	if err == nil {
		r.keep(m)
	}
	return m, err
}

func (r *runner) arrivals(v vin) (*Arrivals, error) {
	var a *Arrivals
	var err error
	switch v.s("type") {
	case "poisson":
		a, err = NewPoissonArrivals(v.f("rate"))
	case "mmpp":
		a, err = NewMMPPArrivals(v.fs("q"), v.fs("rates"))
	case "map":
		a, err = NewMAPArrivals(int(v.u("n")), v.fs("d0"), v.fs("d1"))
	default:
		panic("unknown arrivals type " + v.s("type"))
	}
	if err == nil {
		r.keep(a)
	}
	return a, err
}

func (r *runner) servers(v vin) (*Servers, error) {
	a, err := r.arrivals(v.obj("arrivals"))
	if err != nil {
		return nil, err
	}
	obj := map[string]RoutingObjective{"losses": RoutingLosses, "robot": RoutingRobot}[v.s("objective")]
	s, err := NewServers(a, v.fs("rates"), v.fs("weights"), obj)
	if err == nil {
		r.keep(s)
	}
	return s, err
}

func (r *runner) profile(v vin) (*ProbeProfile, error) {
	var p *ProbeProfile
	var err error
	switch v.s("type") {
	case "dbworld":
		p, err = DBWorldProfile(v.f("ratio"), v.f("horizon_days"))
	case "micronet":
		p, err = MicroNetProfile(v.f("ratio"), v.f("horizon_days"))
	case "piecewise":
		p, err = NewProbeProfile(
			PiecewiseConstant{Breaks: v.fs("lambda_breaks"), Values: v.fs("lambda_values"), Periodic: v.b("lambda_periodic")},
			PiecewiseConstant{Breaks: v.fs("a_breaks"), Values: v.fs("a_values"), Periodic: v.b("a_periodic")},
			v.f("horizon"))
	default:
		panic("unknown profile type " + v.s("type"))
	}
	if err == nil {
		r.keep(p)
	}
	return p, err
}

func (r *runner) thresholdModel(v vin) (*ThresholdModel, error) {
	var arr []*BMAP
	for _, sp := range v.objs("arrivals") {
		m, err := r.bmap(sp)
		if err != nil {
			return nil, err
		}
		arr = append(arr, m)
	}
	service, err := r.dist(v.obj("service"))
	if err != nil {
		return nil, err
	}
	var obs *Dist
	if !v.null("obsolescence") {
		if obs, err = r.dist(v.obj("obsolescence")); err != nil {
			return nil, err
		}
	}
	m, err := NewThresholdModel(arr, service, obs, v.u32("buffer"))
	if err == nil {
		r.keep(m)
	}
	return m, err
}

type out = map[string]any

// scheduler is the empty scheduler of a scheduler.* case.
func (r *runner) scheduler(i vin) (*Scheduler, error) {
	access, err := r.dist(i.obj("access"))
	if err != nil {
		return nil, err
	}
	mode := map[string]SchedulerMode{"stride": Stride, "golden_ratio": GoldenRatio}[i.s("mode")]
	s, err := NewScheduler(access, mode)
	if err == nil {
		r.keep(s)
	}
	return s, err
}

// schedulerPicks is the rest of a scheduler.* case once its pages (ids)
// are added: observations, n picks, length, each page's frequency and rate.
func schedulerPicks(s *Scheduler, i vin, pages []uint64) (out, error) {
	for _, v := range i.objs("observe") {
		if err := s.Observe(v.u("id"), v.f("interval"), v.b("changed")); err != nil {
			return nil, err
		}
	}
	ids := make([]uint64, i.u("n"))
	if err := s.NextBatch(ids); err != nil {
		return nil, err
	}
	n, err := s.Len()
	if err != nil {
		return nil, err
	}
	var freqs, rates []float64
	for _, id := range pages {
		f, err := s.Frequency(id)
		if err != nil {
			return nil, err
		}
		c, err := s.ChangeRate(id)
		if err != nil {
			return nil, err
		}
		freqs, rates = append(freqs, f), append(rates, c)
	}
	return out{"ids": ids, "len": n, "frequencies": freqs, "change_rates": rates}, nil
}

// estimator is the estimator of an estimator.* case: prior, then visits.
func (r *runner) estimator(i vin) (*Estimator, error) {
	var x *Estimator
	var err error
	if i.null("prior") {
		x, err = NewEstimator()
	} else {
		p := i.obj("prior")
		x, err = NewEstimatorWithPrior(p.f("rate_guess"), p.f("weight_time"))
	}
	if err != nil {
		return nil, err
	}
	r.keep(x)
	for _, v := range i.objs("visits") {
		if err := x.Observe(v.f("interval"), v.b("changed")); err != nil {
			return nil, err
		}
	}
	return x, nil
}

// addEach adds a scheduler.* case's pages one by one; their ids.
func addEach(s *Scheduler, i vin) ([]uint64, error) {
	var ids []uint64
	for _, p := range i.objs("pages") {
		var err error
		if p.null("weight") {
			err = s.AddPage(p.u("id"), p.f("change_rate"))
		} else {
			err = s.AddWeightedPage(p.u("id"), p.f("change_rate"), p.f("weight"))
		}
		if err != nil {
			return nil, err
		}
		ids = append(ids, p.u("id"))
	}
	return ids, nil
}

// fInf reads a double that may be "inf" or "-inf".
func fInf(x any) float64 {
	switch x {
	case "inf":
		return math.Inf(1)
	case "-inf":
		return math.Inf(-1)
	}
	f, err := strconv.ParseFloat(string(x.(json.Number)), 64)
	if err != nil {
		panic(err)
	}
	return f
}

func (r *runner) politePlan(i vin) (out, error) {
	m, err := r.model(i)
	if err != nil {
		return nil, err
	}
	var caps []float64
	for _, x := range i.list("max_rates") {
		caps = append(caps, fInf(x))
	}
	obj := map[string]PoliteObjective{"evenly_spaced": PoliteEvenlySpaced, "randomized": PoliteRandomized}[i.s("objective")]
	if obj.String() != i.s("objective") {
		panic("objective " + i.s("objective"))
	}
	p, err := m.PoliteFrequencies(i.u32s("hosts"), caps, obj, i.b("allow_slack"), nil)
	if err != nil {
		return nil, err
	}
	return out{"frequencies": p.Frequencies, "saturated": p.Saturated, "ln_host_multipliers": p.LnHostMultipliers,
		"ln_multiplier": p.LnMultiplier, "objective": p.Objective, "crawl_rate": p.CrawlRate}, nil
}

func (r *runner) schedulerHosts(i vin) (out, error) {
	s, err := r.scheduler(i)
	if err != nil {
		return nil, err
	}
	pages, err := addEach(s, i)
	if err != nil {
		return nil, err
	}
	for _, v := range i.objs("hosts") {
		if err := s.SetHost(v.u("id"), v.u32("host")); err != nil {
			return nil, err
		}
	}
	for _, id := range i.us("clear") {
		if err := s.ClearHost(id); err != nil {
			return nil, err
		}
	}
	delays := i.objs("delays")
	for _, v := range delays {
		if err := s.SetHostDelay(v.u32("host"), v.f("delay")); err != nil {
			return nil, err
		}
	}
	var ready []bool
	var ids []uint64
	var waits []float64
	for _, now := range i.fs("now") {
		id, wait, ok, err := s.NextAt(now)
		if err != nil {
			return nil, err
		}
		ready, ids, waits = append(ready, ok), append(ids, id), append(waits, wait)
	}
	var has []bool
	var hosts []uint32
	for _, id := range pages {
		h, ok, err := s.Host(id)
		if err != nil {
			return nil, err
		}
		has, hosts = append(has, ok), append(hosts, h)
	}
	var ds []float64
	for _, v := range delays {
		d, err := s.HostDelay(v.u32("host"))
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	return out{"ready": ready, "ids": ids, "waits": waits, "has_host": has, "host": hosts, "delays": ds}, nil
}

// finiteOr0 is the vectors' "never due" (0) for the binding's +Inf.
func finiteOr0(x float64) float64 {
	if math.IsInf(x, 1) {
		return 0
	}
	return x
}

// schedulerDue is the rest of a scheduler.due case: observations, imports,
// the bulk intervals by id, then per page its interval, due time, state.
func schedulerDue(s *Scheduler, i vin, pages []uint64) (out, error) {
	for _, v := range i.objs("observe") {
		if err := s.Observe(v.u("id"), v.f("interval"), v.b("changed")); err != nil {
			return nil, err
		}
	}
	for _, v := range i.objs("import") {
		b, err := hex.DecodeString(v.s("state_hex"))
		if err != nil {
			return nil, err
		}
		if err := s.SetPageState(v.u("id"), b); err != nil {
			return nil, err
		}
	}
	all, err := s.RevisitIntervals()
	if err != nil {
		return nil, err
	}
	ids := make([]uint64, 0, len(all))
	for id := range all {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	bulk := make([]float64, len(ids))
	for k, id := range ids {
		bulk[k] = finiteOr0(all[id])
	}
	var one, due []float64
	var has []bool
	var states []string
	for _, id := range pages {
		iv, err := s.RevisitInterval(id)
		if err != nil {
			return nil, err
		}
		d, err := s.NextDue(id, i.f("last_visit"))
		if err != nil {
			return nil, err
		}
		st, err := s.PageState(id)
		if err != nil {
			return nil, err
		}
		one, due = append(one, finiteOr0(iv)), append(due, finiteOr0(d))
		has, states = append(has, !math.IsInf(d, 1)), append(states, hex.EncodeToString(st))
	}
	return out{"ids": ids, "revisit_intervals": bulk, "revisit_interval": one,
		"next_due": due, "has_due": has, "page_states_hex": states}, nil
}

// run replays one case: its outputs, or the first error.
func (r *runner) run(kind string, i vin) (out, error) {
	switch kind {
	case "status_string":
		var names []string
		for _, c := range i.us("statuses") {
			names = append(names, Status(int32(c)).String())
		}
		return out{"names": names}, nil
	case "dist.moment":
		d, err := r.dist(i.obj("dist"))
		if err != nil {
			return nil, err
		}
		mean, err := d.Mean()
		if err != nil {
			return nil, err
		}
		variance, err := d.Variance()
		if err != nil {
			return nil, err
		}
		var moments []float64
		for _, k := range i.u32s("k") {
			x, err := d.Moment(k)
			if err != nil {
				return nil, err
			}
			moments = append(moments, x)
		}
		return out{"mean": mean, "variance": variance, "moments": moments}, nil
	case "dist.transform":
		d, err := r.dist(i.obj("dist"))
		if err != nil {
			return nil, err
		}
		var lap, cdf []float64
		for _, s := range i.fs("s") {
			x, err := d.Laplace(s)
			if err != nil {
				return nil, err
			}
			lap = append(lap, x)
		}
		for _, xv := range i.fs("x") {
			x, err := d.CDF(xv)
			if err != nil {
				return nil, err
			}
			cdf = append(cdf, x)
		}
		return out{"laplace": lap, "cdf": cdf}, nil
	case "dist.sample":
		d, err := r.dist(i.obj("dist"))
		if err != nil {
			return nil, err
		}
		samples := make([]float64, i.u("n"))
		if err := d.Sample(i.u("seed"), samples); err != nil {
			return nil, err
		}
		return out{"samples": samples}, nil
	case "bmap.measures":
		m, err := r.bmap(i.obj("bmap"))
		if err != nil {
			return nil, err
		}
		order, err := m.Order()
		if err != nil {
			return nil, err
		}
		rate, err := m.FundamentalRate()
		if err != nil {
			return nil, err
		}
		var moments, lags []float64
		for _, k := range i.u32s("moments") {
			x, err := m.InterarrivalMoment(k)
			if err != nil {
				return nil, err
			}
			moments = append(moments, x)
		}
		for _, k := range i.u32s("lags") {
			x, err := m.LagCorrelation(k)
			if err != nil {
				return nil, err
			}
			lags = append(lags, x)
		}
		return out{"order": order, "fundamental_rate": rate, "moments": moments, "lag_correlations": lags}, nil
	case "freshness.optimal_frequencies":
		m, err := r.model(i)
		if err != nil {
			return nil, err
		}
		n, err := m.Len()
		if err != nil {
			return nil, err
		}
		h, err := m.H()
		if err != nil {
			return nil, err
		}
		freq, err := m.OptimalFrequencies()
		if err != nil {
			return nil, err
		}
		lb, err := m.LowerBound()
		if err != nil {
			return nil, err
		}
		cost, err := m.Cost(freq)
		if err != nil {
			return nil, err
		}
		obs, err := m.ObsolescenceBound(freq)
		if err != nil {
			return nil, err
		}
		return out{"len": n, "h": h, "frequencies": freq, "lower_bound": lb, "cost": cost, "obsolescence_bound": obs}, nil
	case "freshness.randomized":
		m, err := r.model(i)
		if err != nil {
			return nil, err
		}
		freq, err := m.RandomizedOptimalFrequencies()
		if err != nil {
			return nil, err
		}
		opt, err := m.RandomizedOptimalCost()
		if err != nil {
			return nil, err
		}
		cost, err := m.RandomizedCost(i.fs("freq"))
		if err != nil {
			return nil, err
		}
		return out{"frequencies": freq, "optimal_cost": opt, "cost": cost}, nil
	case "freshness.integer_counts":
		c, err := IntegerCounts(i.fs("freq"), i.u("total"), i.b("at_least_one"))
		if err != nil {
			return nil, err
		}
		return out{"counts": c}, nil
	case "freshness.fibonacci_at_least":
		x, err := FibonacciAtLeast(i.u("n"))
		if err != nil {
			return nil, err
		}
		return out{"value": x}, nil
	case "freshness.golden_ratio_sequence", "freshness.round_robin_sequence", "routing.balanced_sequence":
		f := map[string]func([]uint64) ([]uint32, error){
			"freshness.golden_ratio_sequence": GoldenRatioSequence,
			"freshness.round_robin_sequence":  RoundRobinSequence,
			"routing.balanced_sequence":       BalancedSequence,
		}[kind]
		seq, err := f(i.us("counts"))
		if err != nil {
			return nil, err
		}
		return out{"sequence": seq}, nil
	case "freshness.cyclic_cost":
		m, err := r.model(i)
		if err != nil {
			return nil, err
		}
		cost, err := m.CyclicCost(i.u32s("sequence"))
		if err != nil {
			return nil, err
		}
		obs, err := m.CyclicObsolescence(i.u32s("sequence"))
		if err != nil {
			return nil, err
		}
		return out{"cost": cost, "obsolescence": obs}, nil
	case "freshness.golden_ratio_bound":
		m, err := r.model(i)
		if err != nil {
			return nil, err
		}
		x, err := m.GoldenRatioBound()
		if err != nil {
			return nil, err
		}
		return out{"value": x}, nil
	case "freshness.bound_ratio":
		x, err := BoundRatio(i.f("q"))
		if err != nil {
			return nil, err
		}
		return out{"value": x}, nil
	case "freshness.simulate_cyclic":
		m, err := r.model(i)
		if err != nil {
			return nil, err
		}
		cost, se, err := m.SimulateCyclic(i.u32s("sequence"), i.u("cycles"), i.u("seed"), nil)
		if err != nil {
			return nil, err
		}
		return out{"cost": cost, "std_error": se}, nil
	case "estimator.estimate":
		x, err := r.estimator(i)
		if err != nil {
			return nil, err
		}
		n, err := x.Observations()
		if err != nil {
			return nil, err
		}
		est, err := x.Estimate()
		if err != nil {
			return nil, err
		}
		return out{"estimate": est, "observations": n}, nil
	case "estimator.export_state":
		x, err := r.estimator(i)
		if err != nil {
			return nil, err
		}
		b, err := x.State()
		if err != nil {
			return nil, err
		}
		text, err := x.StateText()
		if err != nil {
			return nil, err
		}
		// The text form reads back to the same estimator.
		y, err := NewEstimatorFromStateText(text)
		if err != nil {
			return nil, err
		}
		r.keep(y)
		est, err := y.Estimate()
		if err != nil {
			return nil, err
		}
		return out{"state_hex": hex.EncodeToString(b), "state_text": text, "estimate": est}, nil
	case "estimator.import_state":
		b, err := hex.DecodeString(i.s("state_hex"))
		if err != nil {
			return nil, err
		}
		x, err := NewEstimatorFromState(b)
		if err != nil {
			return nil, err
		}
		r.keep(x)
		n, err := x.Observations()
		if err != nil {
			return nil, err
		}
		est, err := x.Estimate()
		if err != nil {
			return nil, err
		}
		again, err := x.State()
		if err != nil {
			return nil, err
		}
		return out{"estimate": est, "observations": n, "state_hex": hex.EncodeToString(again)}, nil
	case "scheduler.sequence":
		s, err := r.scheduler(i)
		if err != nil {
			return nil, err
		}
		ids, err := addEach(s, i)
		if err != nil {
			return nil, err
		}
		return schedulerPicks(s, i, ids)
	case "scheduler.hosts":
		return r.schedulerHosts(i)
	case "freshness.polite_frequencies":
		return r.politePlan(i)
	case "scheduler.due":
		s, err := r.scheduler(i)
		if err != nil {
			return nil, err
		}
		ids, err := addEach(s, i)
		if err != nil {
			return nil, err
		}
		return schedulerDue(s, i, ids)
	case "scheduler.add_pages":
		s, err := r.scheduler(i)
		if err != nil {
			return nil, err
		}
		if err := s.AddPages(i.us("ids"), i.fs("change_rates"), i.fs("weights")); err != nil {
			return nil, err
		}
		return schedulerPicks(s, i, i.us("ids"))
	case "mdp.solve":
		b, err := NewMDPBuilder(int(i.u("n_states")))
		if err != nil {
			return nil, err
		}
		r.keep(b)
		for _, a := range i.objs("actions") {
			if _, err := b.AddAction(a.u32("state"), a.u32s("next"), a.fs("prob"), a.f("cost")); err != nil {
				return nil, err
			}
		}
		m, err := b.Build()
		if err != nil {
			return nil, err
		}
		r.keep(m)
		ns, na, nt, err := m.Size()
		if err != nil {
			return nil, err
		}
		method := map[string]MDPMethod{"relative_value_iteration": RelativeValueIteration, "value_iteration": ValueIteration,
			"gauss_seidel": GaussSeidel, "policy_iteration": PolicyIteration}[i.s("method")]
		s, err := NewMDPSolver(method)
		if err != nil {
			return nil, err
		}
		r.keep(s)
		stop := map[string]MDPStopping{"span": StopSpan, "relative_change": StopRelativeChange}[i.s("stopping")]
		if err := s.SetLimits(i.f("tolerance"), i.u("max_iterations"), stop); err != nil {
			return nil, err
		}
		crit := map[string]MDPCriterion{"average": Average, "discounted": Discounted}[i.s("criterion")]
		if err := s.SetCriterion(crit, i.f("discount"), i.f("tau")); err != nil {
			return nil, err
		}
		if err := s.Run(m); err != nil {
			return nil, err
		}
		g, lo, hi, err := s.Gain()
		if err != nil {
			return nil, err
		}
		st, err := s.Stats()
		if err != nil {
			return nil, err
		}
		pol, err := s.Policy()
		if err != nil {
			return nil, err
		}
		val, err := s.Values()
		if err != nil {
			return nil, err
		}
		return out{"states": ns, "actions": na, "transitions": nt, "gain": g, "lo": lo, "hi": hi,
			"iterations": st.Iterations, "converged": st.Converged, "recurrent_classes": st.RecurrentClasses,
			"policy": pol, "values": val}, nil
	case "robots.solve":
		var rb *Robots
		var err error
		if i.null("n") {
			rb, err = SolveRobotsUnlimited(i.u("k"), i.f("lambda"), i.f("mu"), i.f("gamma"), nil)
		} else {
			rb, err = SolveRobots(i.u("n"), i.u("k"), i.f("lambda"), i.f("mu"), i.f("gamma"), nil)
		}
		if err != nil {
			return nil, err
		}
		r.keep(rb)
		n, k, err := rb.Size()
		if err != nil {
			return nil, err
		}
		cost, starv, loss, err := rb.Cost()
		if err != nil {
			return nil, err
		}
		nmin, nmean, nmax, err := rb.Counts()
		if err != nil {
			return nil, err
		}
		dep, isDep, err := rb.SwitchingCurve(0)
		if err != nil {
			return nil, err
		}
		arr, isArr, err := rb.SwitchingCurve(1)
		if err != nil {
			return nil, err
		}
		var static []float64
		for _, sn := range i.us("static_n") {
			x, err := rb.EvaluateStatic(sn)
			if err != nil {
				return nil, err
			}
			static = append(static, x)
		}
		return out{"n": n, "k": k, "cost": cost, "starvation": starv, "loss_rate": loss,
			"n_min": nmin, "n_mean": nmean, "n_max": nmax, "curve_departure": dep, "curve_arrival": arr,
			"is_curve_departure": isDep, "is_curve_arrival": isArr, "static_costs": static}, nil
	case "robots.static":
		sc, err := RobotsStaticCost(i.f("lambda")/i.f("mu"), i.f("gamma"), i.u("k"), i.f("mu"))
		if err != nil {
			return nil, err
		}
		n, cost, err := RobotsOptimalStatic(i.f("lambda"), i.f("mu"), i.f("gamma"), i.u("k"))
		if err != nil {
			return nil, err
		}
		return out{"static_cost": sc, "optimal_n": n, "optimal_cost": cost}, nil
	case "threshold.measures":
		m, err := r.thresholdModel(i)
		if err != nil {
			return nil, err
		}
		count, err := m.StateCount()
		if err != nil {
			return nil, err
		}
		modes, th := i.u32s("modes"), i.u32s("thresholds")
		meas, err := m.Measures(modes, th, nil)
		if err != nil {
			return nil, err
		}
		levels, err := m.LevelDistribution(modes, th, nil)
		if err != nil {
			return nil, err
		}
		cost, err := m.Cost(modes, th, i.fs("weights"), nil)
		if err != nil {
			return nil, err
		}
		return out{"state_count": count, "measures": meas, "level_distribution": levels, "cost": cost}, nil
	case "threshold.optimize":
		m, err := r.thresholdModel(i)
		if err != nil {
			return nil, err
		}
		plan, err := m.Optimize(i.u32s("modes"), i.fs("weights"), i.u("max_evaluations"), nil)
		if err != nil {
			return nil, err
		}
		return out{"thresholds": plan.Thresholds, "cost": plan.Cost, "evaluated": plan.Evaluated}, nil
	case "routing.cost":
		s, err := r.servers(i)
		if err != nil {
			return nil, err
		}
		m, err := s.Len()
		if err != nil {
			return nil, err
		}
		a, err := r.arrivals(i.obj("arrivals"))
		if err != nil {
			return nil, err
		}
		rate, err := a.Rate()
		if err != nil {
			return nil, err
		}
		pp, put, err := s.Cost(i.u32s("sequence"))
		if err != nil {
			return nil, err
		}
		return out{"servers": m, "rate": rate, "per_packet": pp, "per_unit_time": put}, nil
	case "routing.optimize_exhaustive":
		s, err := r.servers(i)
		if err != nil {
			return nil, err
		}
		plan, err := s.OptimizeExhaustive(i.u("min_period"), i.u("max_period"), nil)
		if err != nil {
			return nil, err
		}
		return out{"period": plan.Period, "cost": plan.Cost, "evaluations": plan.Evaluations}, nil
	case "routing.switch_point":
		x, err := SwitchPoint(i.u32("n"))
		if err != nil {
			return nil, err
		}
		return out{"value": x}, nil
	case "routing.two_server_cost":
		x, err := TwoServerCost(i.u32("n"), i.f("mu2"))
		if err != nil {
			return nil, err
		}
		return out{"value": x}, nil
	case "routing.router":
		rt, err := NewRouter(i.u32s("sequence"), i.u32("servers"))
		if err != nil {
			return nil, err
		}
		r.keep(rt)
		next := make([]uint32, i.u("n"))
		if err := rt.NextBatch(next); err != nil {
			return nil, err
		}
		return out{"next": next}, nil
	case "probe.optimal":
		p, err := r.profile(i.obj("profile"))
		if err != nil {
			return nil, err
		}
		pl, err := NewProbePlanner(p, i.u("grid"), i.f("delta"))
		if err != nil {
			return nil, err
		}
		r.keep(pl)
		method := map[string]ProbeMethod{"reference": ProbeReference, "divide_conquer": ProbeDivideConquer,
			"hull": ProbeHull, "lagrangian": ProbeLagrangian}[i.s("method")]
		probes, cost, err := pl.Plan(int(i.u("n")), method)
		if err != nil {
			return nil, err
		}
		return out{"probes": probes, "cost": cost}, nil
	case "probe.cost":
		p, err := r.profile(i.obj("profile"))
		if err != nil {
			return nil, err
		}
		ic, err := p.IntervalCost(i.f("s"), i.f("f"))
		if err != nil {
			return nil, err
		}
		ec, err := p.ExpectedCost(i.fs("probes"))
		if err != nil {
			return nil, err
		}
		rc, err := p.RealizedCost(i.fs("probes"), i.fs("updates"))
		if err != nil {
			return nil, err
		}
		return out{"interval_cost": ic, "expected_cost": ec, "realized_cost": rc}, nil
	case "probe.policy":
		p, err := r.profile(i.obj("profile"))
		if err != nil {
			return nil, err
		}
		pol := map[string]ProbePolicy{"threshold": ProbeThreshold, "first_arrival": ProbeFirstArrival}[i.s("policy")]
		probes, err := p.PolicySchedule(pol, i.f("parameter"))
		if err != nil {
			return nil, err
		}
		return out{"probes": probes}, nil
	}
	return nil, fmt.Errorf("unknown kind %q: teach vectors_test.go about it", kind)
}

// same compares an output with its expected JSON value exactly: doubles
// with ==, integers and strings as text, arrays element by element.
func same(got any, want any) bool {
	switch w := want.(type) {
	case json.Number:
		switch g := got.(type) {
		case float64:
			x, err := strconv.ParseFloat(string(w), 64)
			return err == nil && x == g
		case bool, string:
			return false
		default:
			return fmt.Sprint(got) == string(w)
		}
	case string:
		if g, ok := got.(float64); ok && (w == "inf" || w == "-inf") {
			return g == fInf(w)
		}
		return got == want
	case []any:
		gv := reflect.ValueOf(got)
		if gv.Kind() != reflect.Slice || gv.Len() != len(w) {
			return false
		}
		for k := range w {
			if !same(gv.Index(k).Interface(), w[k]) {
				return false
			}
		}
		return true
	default:
		return reflect.DeepEqual(got, want)
	}
}

func TestSharedVectors(t *testing.T) {
	f, err := os.Open("../testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.UseNumber()
	var doc struct {
		ABIVersion json.Number `json:"abi_version"`
		Cases      []vcase     `json:"cases"`
	}
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.ABIVersion.String() != strconv.Itoa(ABIVersion) {
		t.Fatalf("vectors are for ABI %s, binding is ABI %d", doc.ABIVersion, ABIVersion)
	}
	if len(doc.Cases) < 20 {
		t.Fatalf("only %d cases", len(doc.Cases))
	}
	for _, c := range doc.Cases {
		r := &runner{}
		got, err := r.run(c.Kind, vin(c.Input))
		r.close()
		if want, isErr := c.Expected["error"].(map[string]any); isErr {
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("%s: got %v, %v; want error %v", c.Name, got, err, want)
				continue
			}
			if e.Status.String() != want["status"] || !strings.Contains(e.Message, want["message"].(string)) {
				t.Errorf("%s: got %v %q, want %v %q", c.Name, e.Status, e.Message, want["status"], want["message"])
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if len(got) != len(c.Expected) {
			t.Errorf("%s: outputs %v, want fields %v", c.Name, got, c.Expected)
		}
		for k, want := range c.Expected {
			if !same(got[k], want) {
				t.Errorf("%s: %s = %v, want %v", c.Name, k, got[k], want)
			}
		}
	}
}
