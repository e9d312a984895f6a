package replication

import (
	"strings"

	"github.com/skytui/skytui/theme"
)

// HistoryLen is how many Seconds_Behind_Master samples are kept per pair.
const HistoryLen = 60

type history struct {
	samples []*int64
}

func (h *history) add(v *int64) {
	if v != nil {
		n := *v
		v = &n
	}
	h.samples = append(h.samples, v)
	if len(h.samples) > HistoryLen {
		h.samples = h.samples[len(h.samples)-HistoryLen:]
	}
}

func (h *history) max() int64 {
	var m int64
	for _, v := range h.samples {
		if v != nil && *v > m {
			m = *v
		}
	}
	return m
}

// Sparkline draws the last width samples with the theme's glyphs (ASCII
// by default): the lowest glyph is 0 s, the highest the window's maximum
// (at least 5 s, so a steady 1–2 s does not look like a spike); a gap is a
// space.
func Sparkline(g theme.Glyphs, samples []*int64, width int) string {
	levels := g.Spark
	if len(levels) == 0 {
		levels = theme.ASCII.Spark
	}
	if width <= 0 {
		return ""
	}
	if len(samples) > width {
		samples = samples[len(samples)-width:]
	}
	var top int64 = 5
	for _, v := range samples {
		if v != nil && *v > top {
			top = *v
		}
	}
	var b strings.Builder
	for _, v := range samples {
		if v == nil {
			b.WriteByte(' ')
			continue
		}
		n := *v
		if n < 0 {
			n = 0
		}
		i := int((n*int64(len(levels)-1) + top - 1) / top) // ceil: any lag shows above the floor
		i = min(max(i, 0), len(levels)-1)
		b.WriteString(levels[i])
	}
	return b.String()
}
