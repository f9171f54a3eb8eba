package main

import (
	"bytes"
	"fmt"
	"math"
)

// Line colours per mode (colour-blind safe: Okabe-Ito).
var colours = []string{"#999999", "#E69F00", "#0072B2"}

// PlotSVG draws freshness over simulated time per mode, with each mode's
// theoretical value as a dashed line and the measurement window shaded.
func PlotSVG(r *Result) []byte {
	const (
		w, h                 = 760.0, 420.0
		left, right, top, bt = 60.0, 20.0, 40.0, 90.0
	)
	pw, ph := w-left-right, h-top-bt
	hi := 0.0
	for _, m := range r.Modes {
		for _, f := range m.Series.Freshness {
			hi = math.Max(hi, f)
		}
		hi = math.Max(hi, m.Theory.Freshness)
	}
	hi = math.Min(1, math.Ceil(hi*10+0.5)/10)
	x := func(t float64) float64 { return left + pw*t/math.Max(r.SimHours, 1e-9) }
	y := func(f float64) float64 { return top + ph*(1-f/hi) }
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="22" font-size="15">Fresh pages over time: %d pages, %.0f requests/hour per crawler</text>`+"\n", left, r.Pages, r.Budget)
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#f2f2f2"/>`+"\n", x(r.WindowFrom), top, x(r.SimHours)-x(r.WindowFrom), ph)
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="#777">measured window</text>`+"\n", x(r.WindowFrom)+4, top+14)
	// Axes and grid.
	for k := 0; k <= int(math.Round(hi*10)); k++ {
		f := float64(k) / 10
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", left, left+pw, y(f), y(f))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%.0f%%</text>`+"\n", left-6, y(f)+4, 100*f)
	}
	step := niceStep(r.SimHours / 8)
	for t := 0.0; t <= r.SimHours+1e-9; t += step {
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#999"/>`+"\n", x(t), x(t), top+ph, top+ph+4)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%g</text>`+"\n", x(t), top+ph+18, t)
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">simulated hours (1 real second = %g h)</text>`+"\n", left+pw/2, top+ph+36, r.Scale)
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#333"/>`+"\n", left, top, pw, ph)
	for i, m := range r.Modes {
		c := colours[i%len(colours)]
		var pts bytes.Buffer
		for k, f := range m.Series.Freshness {
			t := math.Min((float64(k)+0.5)*m.Series.BinHours, r.SimHours)
			fmt.Fprintf(&pts, "%.1f,%.1f ", x(t), y(f))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n", c, pts.String())
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-dasharray="6 4"/>`+"\n",
			x(r.WindowFrom), x(r.SimHours), y(m.Theory.Freshness), y(m.Theory.Freshness), c)
		lx := left + float64(i)*pw/3
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="3"/>`+"\n", lx, lx+24, h-22, h-22, c)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%s: %.1f%%</text>`+"\n", lx+30, h-18, m.Name, 100*m.Measured.Freshness)
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="#555">dashed: theory for the true change rates</text>`+"\n", left, h-40)
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// niceStep rounds a tick step up to 1, 2 or 5 times a power of ten.
func niceStep(s float64) float64 {
	if !(s > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(s)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= s {
			return m * p
		}
	}
	return 10 * p
}
