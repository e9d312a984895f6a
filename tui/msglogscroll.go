package tui

// How the message log's box scrolls: by whole entries, so the box starts
// on an entry's first line, and through an entry taller than the box a
// line at a time under its first line, which stays on top. The last line
// counts the lines below and above (kit.MoreLine).

// size is how many lines entry i has.
func (d *logDialog) size(i int) int { return d.starts[i+1] - d.starts[i] }

// visible are the lines the box shows: the top entry's first line, then,
// past the lines skipped, as many as the box has rows for.
func (d *logDialog) visible() []int {
	if len(d.shown) == 0 {
		return nil
	}
	first := d.starts[d.top]
	out := []int{first}
	for l := first + 1 + d.skip; l < len(d.lines) && len(out) < d.rows(); l++ {
		out = append(out, l)
	}
	return out
}

// aboveBelow counts the lines above the box and below it.
func (d *logDialog) aboveBelow() (above, below int) {
	v := d.visible()
	if len(v) == 0 {
		return 0, 0
	}
	return d.starts[d.top] + d.skip, len(d.lines) - v[len(v)-1] - 1
}

// bottomTop is the top entry when the box shows the end: the first from
// which all the rest fits, or the last entry when it alone does not.
func (d *logDialog) bottomTop() int {
	for t := range d.shown {
		if len(d.lines)-d.starts[t] <= d.rows() {
			return t
		}
	}
	return max(0, len(d.shown)-1)
}

// maxSkip is how many lines of entry i can be scrolled past: until its
// last line is the box's last.
func (d *logDialog) maxSkip(i int) int { return max(0, d.size(i)-d.rows()) }

// clamp keeps the top within the entries, never showing space past the
// end, and a skip only within the selected entry.
func (d *logDialog) clamp() {
	if len(d.shown) == 0 {
		d.top, d.skip = 0, 0
		return
	}
	d.top = max(0, min(d.top, d.bottomTop()))
	if d.top != d.sel {
		d.skip = 0
	}
	d.skip = max(0, min(d.skip, d.maxSkip(d.top)))
}

// reveal scrolls so the selected entry is in view: on top when it was
// above; when its end was below, the first top from which it fits whole,
// or on top itself when it does not.
func (d *logDialog) reveal() {
	if d.sel < 0 || d.sel >= len(d.shown) {
		return
	}
	end := d.starts[d.sel+1]
	switch v := d.visible(); {
	case d.sel < d.top:
		d.top, d.skip = d.sel, 0
	case d.top < d.sel && end > v[len(v)-1]+1:
		d.top, d.skip = d.sel, 0
		for t := range d.sel {
			if end-d.starts[t] <= d.rows() {
				d.top = t
				break
			}
		}
	}
	d.clamp()
}

// cut says whether the selected entry goes on below the box.
func (d *logDialog) cut() bool {
	v := d.visible()
	return len(v) > 0 && d.starts[d.sel+1] > v[len(v)-1]+1
}

// down shows the rest of the selected entry while some is below the box
// (whole entries off the top, then a line at a time through one taller
// than the box), then moves to the next entry.
func (d *logDialog) down() {
	switch {
	case d.sel < 0:
	case d.cut() && d.top < d.sel:
		d.reveal()
	case d.cut():
		d.skip++
	case d.sel < len(d.shown)-1:
		d.sel++
		d.reveal()
	}
}

func (d *logDialog) up() {
	switch {
	case d.sel < 0:
	case d.top == d.sel && d.skip > 0:
		d.skip--
	case d.sel > 0:
		d.sel--
		d.reveal()
	}
}

// page scrolls by about a box of lines, keeping a line of the last view
// in view, and selects the entry on top (the newest at the bottom).
func (d *logDialog) page(dir int) {
	if d.sel < 0 {
		return
	}
	step := max(1, d.rows()-2) // the lines under the top's first, less one
	if dir > 0 {
		v := d.visible()
		last := v[len(v)-1]
		e := d.top
		for e+1 < len(d.shown) && d.starts[e+1] <= last {
			e++
		}
		switch {
		case e > d.top:
			d.top, d.skip = e, 0
		case d.skip < d.maxSkip(d.top): // one entry fills the box: through it
			d.sel = d.top
			d.skip += step
		case d.top+1 < len(d.shown): // its end shows: the next
			d.top, d.skip = d.top+1, 0
		}
		d.sel = d.top
		d.clamp()
		if _, below := d.aboveBelow(); below == 0 {
			d.sel = len(d.shown) - 1 // the bottom: the newest
		}
		return
	}
	switch {
	case d.skip > 0:
		d.skip = max(0, d.skip-step)
	case d.top > 0:
		// the first entry from which the old top's first line still
		// shows; the one above when it alone is too tall, from its end
		t := d.top - 1
		for t > 0 && d.starts[d.top]+1-d.starts[t-1] <= d.rows() {
			t--
		}
		skip := 0
		if d.starts[d.top]+1-d.starts[t] > d.rows() {
			skip = d.maxSkip(t)
		}
		d.top, d.skip = t, skip
	}
	d.sel = d.top
	d.clamp()
}
