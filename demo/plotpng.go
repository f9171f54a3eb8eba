package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"strconv"
	"unicode"
)

// PlotPNG draws the same plot as PlotSVG with the standard library only
// (image/png), at twice the SVG's size, text in a built-in 5x7 font.
func PlotPNG(r *Result) ([]byte, error) {
	const (
		s                    = 2.0 // pixels per SVG unit
		w, h                 = 760.0, 440.0
		left, right, top, bt = 60.0, 20.0, 40.0, 100.0
	)
	d := preparePlot(r)
	c := &canvas{img: image.NewRGBA(image.Rect(0, 0, int(w*s), int(h*s))), s: s}
	c.fill(0, 0, w, h, color.RGBA{255, 255, 255, 255})
	pw, ph := w-left-right, h-top-bt
	x := func(t float64) float64 { return left + pw*t/math.Max(r.SimHours, 1e-9) }
	y := func(f float64) float64 { return top + ph*(d.hi-f)/(d.hi-d.lo) }
	grey := func(v uint8) color.RGBA { return color.RGBA{v, v, v, 255} }
	c.text(left, 14, plotTitle(r), grey(0), 1.5)
	c.fill(x(r.WindowFrom), top, x(r.SimHours)-x(r.WindowFrom), ph, grey(242))
	c.text(x(r.WindowFrom)+4, top+6, "measured window", grey(119), 1)
	for k := int(math.Round(d.lo * 20)); k <= int(math.Round(d.hi*20)); k++ {
		f := float64(k) / 20
		c.line(left, y(f), left+pw, y(f), grey(221), 1, 0)
		label := strconv.Itoa(5*k) + "%"
		c.text(left-6-float64(6*len(label)), y(f)-3, label, grey(0), 1)
	}
	step := niceStep(r.SimHours / 8)
	for t := 0.0; t <= r.SimHours+1e-9; t += step {
		c.line(x(t), top+ph, x(t), top+ph+4, grey(153), 1, 0)
		label := strconv.FormatFloat(t, 'g', -1, 64)
		c.text(x(t)-float64(3*len(label)), top+ph+10, label, grey(0), 1)
	}
	axis := fmt.Sprintf("simulated hours (1 real second = %g h); lines: moving average over %.0f h", r.Scale, smoothWidth*r.SimHours)
	c.text(left+pw/2-float64(3*len(axis)), top+ph+28, axis, grey(0), 1)
	c.rect(left, top, pw, ph, grey(51))
	lx := left
	for i, m := range r.Modes {
		col := hexColour(modeColour(m.Name))
		pts := d.series[i]
		for k := 1; k < len(pts); k++ {
			t0 := math.Min((float64(k)-0.5)*m.Series.BinHours, r.SimHours)
			t1 := math.Min((float64(k)+0.5)*m.Series.BinHours, r.SimHours)
			c.clipLine(x(t0), y(pts[k-1]), x(t1), y(pts[k]), col, 2, left, top, left+pw, top+ph)
		}
		c.line(x(r.WindowFrom), y(m.Theory.Freshness), x(r.SimHours), y(m.Theory.Freshness), col, 1, 6)
		label := fmt.Sprintf("%s: %.1f%%", legendName(r, m.Name), 100*m.Measured.Freshness)
		c.line(lx, h-22, lx+24, h-22, col, 3, 0)
		c.text(lx+30, h-25, label, grey(0), 1)
		lx += 30 + 6*float64(len(label)) + 24
	}
	c.text(left, h-50, "dashed: theory for the true change rates (the measured value of each crawler is over the shaded window)", grey(85), 1)
	var b bytes.Buffer
	if err := png.Encode(&b, c.img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func hexColour(s string) color.RGBA {
	v, _ := strconv.ParseUint(s[1:], 16, 32)
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}
}

// canvas draws in SVG units scaled by s.
type canvas struct {
	img *image.RGBA
	s   float64
}

func (c *canvas) fill(x, y, w, h float64, col color.RGBA) {
	for py := int(y * c.s); py < int((y+h)*c.s); py++ {
		for px := int(x * c.s); px < int((x+w)*c.s); px++ {
			c.img.SetRGBA(px, py, col)
		}
	}
}

func (c *canvas) rect(x, y, w, h float64, col color.RGBA) {
	c.line(x, y, x+w, y, col, 1, 0)
	c.line(x, y+h, x+w, y+h, col, 1, 0)
	c.line(x, y, x, y+h, col, 1, 0)
	c.line(x+w, y, x+w, y+h, col, 1, 0)
}

// line draws a segment of width `width` (SVG units), dashed with dashes
// and gaps of `dash` units if dash > 0.
func (c *canvas) line(x0, y0, x1, y1 float64, col color.RGBA, width, dash float64) {
	length := math.Hypot(x1-x0, y1-y0)
	n := int(length*c.s*2) + 1
	r := math.Max(1, width*c.s/2)
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		if dash > 0 && int(t*length/dash)%2 == 1 {
			continue
		}
		cx, cy := (x0+(x1-x0)*t)*c.s, (y0+(y1-y0)*t)*c.s
		for py := int(cy - r + 0.5); py < int(cy+r+0.5); py++ {
			for px := int(cx - r + 0.5); px < int(cx+r+0.5); px++ {
				c.img.SetRGBA(px, py, col)
			}
		}
	}
}

// clipLine draws the part of a segment inside [xa, xb] x [ya, yb].
func (c *canvas) clipLine(x0, y0, x1, y1 float64, col color.RGBA, width, xa, ya, xb, yb float64) {
	in := func(x, y float64) bool { return x >= xa && x <= xb && y >= ya && y <= yb }
	if in(x0, y0) && in(x1, y1) {
		c.line(x0, y0, x1, y1, col, width, 0)
	}
}

// text writes s with its top-left corner at (x, y), glyphs 5x7 units
// times size, advancing 6 units per character.
func (c *canvas) text(x, y float64, s string, col color.RGBA, size float64) {
	for i, ch := range s {
		g, ok := font5x7[ch]
		if !ok {
			g = font5x7[unicode.ToLower(ch)]
		}
		for row, bits := range g {
			for b := 0; b < 5; b++ {
				if bits&(0x10>>b) != 0 {
					c.fill(x+(float64(6*i)+float64(b))*size, y+float64(row)*size, size, size, col)
				}
			}
		}
	}
}

// font5x7 holds the glyphs the plot uses (rows top to bottom, 5 bits
// each, like a character LCD's font); upper case falls back to lower case.
var font5x7 = map[rune][7]uint8{
	'0': {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}, '1': {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E},
	'2': {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}, '3': {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E},
	'4': {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}, '5': {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E},
	'6': {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}, '7': {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},
	'8': {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}, '9': {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C},
	'a': {0x00, 0x00, 0x0E, 0x01, 0x0F, 0x11, 0x0F}, 'b': {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x1E},
	'c': {0x00, 0x00, 0x0E, 0x10, 0x10, 0x11, 0x0E}, 'd': {0x01, 0x01, 0x0D, 0x13, 0x11, 0x11, 0x0F},
	'e': {0x00, 0x00, 0x0E, 0x11, 0x1F, 0x10, 0x0E}, 'f': {0x06, 0x09, 0x08, 0x1C, 0x08, 0x08, 0x08},
	'g': {0x00, 0x0F, 0x11, 0x11, 0x0F, 0x01, 0x0E}, 'h': {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x11},
	'i': {0x04, 0x00, 0x0C, 0x04, 0x04, 0x04, 0x0E}, 'j': {0x02, 0x00, 0x06, 0x02, 0x02, 0x12, 0x0C},
	'k': {0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12}, 'l': {0x0C, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E},
	'm': {0x00, 0x00, 0x1A, 0x15, 0x15, 0x11, 0x11}, 'n': {0x00, 0x00, 0x16, 0x19, 0x11, 0x11, 0x11},
	'o': {0x00, 0x00, 0x0E, 0x11, 0x11, 0x11, 0x0E}, 'p': {0x00, 0x00, 0x1E, 0x11, 0x1E, 0x10, 0x10},
	'q': {0x00, 0x00, 0x0D, 0x13, 0x0F, 0x01, 0x01}, 'r': {0x00, 0x00, 0x16, 0x19, 0x10, 0x10, 0x10},
	's': {0x00, 0x00, 0x0E, 0x10, 0x0E, 0x01, 0x1E}, 't': {0x08, 0x08, 0x1C, 0x08, 0x08, 0x09, 0x06},
	'u': {0x00, 0x00, 0x11, 0x11, 0x11, 0x13, 0x0D}, 'v': {0x00, 0x00, 0x11, 0x11, 0x11, 0x0A, 0x04},
	'w': {0x00, 0x00, 0x11, 0x11, 0x15, 0x15, 0x0A}, 'x': {0x00, 0x00, 0x11, 0x0A, 0x04, 0x0A, 0x11},
	'y': {0x00, 0x00, 0x11, 0x11, 0x0F, 0x01, 0x0E}, 'z': {0x00, 0x00, 0x1F, 0x02, 0x04, 0x08, 0x1F},
	'F': {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10}, '%': {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03},
	'.': {0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C}, ',': {0x00, 0x00, 0x00, 0x00, 0x0C, 0x04, 0x08},
	':': {0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00}, '+': {0x00, 0x04, 0x04, 0x1F, 0x04, 0x04, 0x00},
	'-': {0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00}, '(': {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02},
	')': {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}, '/': {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00},
	'=': {0x00, 0x00, 0x1F, 0x00, 0x1F, 0x00, 0x00}, ';': {0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x04, 0x08},
	' ': {},
}
