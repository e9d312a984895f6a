// Command bench measures skytui beside what users run today to watch
// service status:
//
//	watch -n 2 'curl -s -H "X-API-Key: …" <url> | jq'
//
// Both run in pseudo-terminals of the same size against the same sandbox
// endpoint, at the same time. It reports bytes written to the terminal per
// idle minute, CPU seconds per idle minute, peak RSS, time to the first
// frame showing data, the time from a key to the frame that shows it (p50,
// p99; skytui only) and API requests per minute (settled and while a
// service is pending). It measures; it asserts nothing.
//
//	go run ./bench -idle 60s
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/creack/pty"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
)

const key = "bench-key"

func main() {
	idle := flag.Duration("idle", 60*time.Second, "length of the idle (settled) measurement")
	pending := flag.Duration("pending", 30*time.Second, "length of the measurement while a service is pending")
	starts := flag.Int("starts", 7, "process starts for the first-frame median")
	keys := flag.Int("keys", 200, "key presses for the key-to-frame percentiles")
	bin := flag.String("bin", "", "skytui binary (default: build one)")
	flag.Parse()
	if err := run(*idle, *pending, *starts, *keys, *bin); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// counter counts requests by client (User-Agent prefix).
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		who := "other"
		switch ua := r.UserAgent(); {
		case strings.HasPrefix(ua, "skytui/"):
			who = "skytui"
		case strings.HasPrefix(ua, "curl/"):
			who = "watch"
		}
		c.mu.Lock()
		c.n[who]++
		c.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (c *counter) get(who string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[who]
}

// proc is a program in a pseudo-terminal whose output is counted.
type proc struct {
	cmd   *exec.Cmd
	pty   *os.File
	bytes atomic.Int64
	mu    sync.Mutex
	seen  bytes.Buffer // the output so far, for the first-frame check
	reads []read       // when each part of seen arrived, for key-to-frame
	done  chan struct{}
}

// read is one read from the terminal: when it returned and where its bytes
// start in seen.
type read struct {
	at  time.Time
	off int
}

func start(name string, args []string, env []string) (*proc, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 120, Rows: 40})
	if err != nil {
		return nil, err
	}
	p := &proc{cmd: cmd, pty: f, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		buf := make([]byte, 32<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				p.bytes.Add(int64(n))
				at := time.Now()
				p.mu.Lock()
				if p.seen.Len() < 8<<20 {
					p.reads = append(p.reads, read{at, p.seen.Len()})
					p.seen.Write(buf[:n])
				}
				p.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	return p, nil
}

func (p *proc) saw(s string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return bytes.Contains(p.seen.Bytes(), []byte(s))
}

func (p *proc) stop() {
	_ = p.cmd.Process.Signal(os.Interrupt)
	t := time.AfterFunc(3*time.Second, func() { _ = p.cmd.Process.Kill() })
	_ = p.cmd.Wait()
	t.Stop()
	p.pty.Close()
	<-p.done
}

// cpu is user+system time of the process and its reaped children.
func cpu(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	var ticks int64
	for _, i := range []int{11, 12, 13, 14} { // utime stime cutime cstime
		n, _ := strconv.ParseInt(f[i], 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * time.Second / 100
}

// peakRSS is VmHWM of the process in MB.
func peakRSS(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			kb, _ := strconv.ParseFloat(strings.Fields(l)[1], 64)
			return kb / 1024
		}
	}
	return 0
}

func build(dir string) (string, error) {
	out := filepath.Join(dir, "bin", "skytui")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -X main.version=bench", "-o", out, ".")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return out, cmd.Run()
}

// keyToFrame starts skytui, waits for its data, then presses j and k in
// turn (the selection moves down a row and back) and times each press from
// the write of the key to the first byte of the frame that shows it. That
// frame is the first read after the write; it counts when the bytes read
// within 5 ms of it repaint a service row. Anything else (the header's
// "updated Ns ago") is not the key's frame, and the press is taken again.
// typing is n presses 30–130 ms apart at random, so they land at any phase
// of the renderer's frame ticker; quiet is n/4 more, each after 0.6–1 s
// without input (the first key after a pause).
func keyToFrame(bin string, args, env []string, n int) (typing, quiet []time.Duration, redo int, err error) {
	p, err := start(bin, args, env)
	if err != nil {
		return nil, nil, 0, err
	}
	defer p.stop()
	for t0 := time.Now(); !p.saw("bench-svc-00"); time.Sleep(time.Millisecond) {
		if time.Since(t0) > 10*time.Second {
			return nil, nil, 0, fmt.Errorf("skytui showed no data within 10 s")
		}
	}
	time.Sleep(2 * time.Second) // the first fetches and the terminal queries settle
	const burst = 5 * time.Millisecond
	i := 0
	presses := func(n int, gap func() time.Duration) ([]time.Duration, error) {
		var ds []time.Duration
		for len(ds) < n {
			if redo > n {
				return nil, fmt.Errorf("key to frame: %d presses showed no row repaint", redo)
			}
			time.Sleep(gap())
			p.mu.Lock()
			off := p.seen.Len()
			p.mu.Unlock()
			t0 := time.Now()
			if _, err := p.pty.WriteString([]string{"j", "k"}[i%2]); err != nil {
				return nil, err
			}
			i++
			var d time.Duration
			for ok := false; !ok; time.Sleep(time.Millisecond) {
				if time.Since(t0) > 2*time.Second {
					return nil, fmt.Errorf("key to frame: no output within 2 s of a key")
				}
				p.mu.Lock()
				j := sort.Search(len(p.reads), func(j int) bool { return p.reads[j].off >= off })
				if j < len(p.reads) && time.Since(p.reads[j].at) > burst {
					first, end := p.reads[j], p.seen.Len()
					for _, r := range p.reads[j+1:] {
						if r.at.Sub(first.at) > burst {
							end = r.off
							break
						}
					}
					if bytes.Contains(p.seen.Bytes()[first.off:end], []byte("bench-svc-")) {
						d = first.at.Sub(t0)
					} else {
						d = -1
					}
					ok = true
				}
				p.mu.Unlock()
			}
			if d < 0 {
				redo++
				time.Sleep(300 * time.Millisecond) // let the key's own frame pass
				continue
			}
			ds = append(ds, d)
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return ds, nil
	}
	if typing, err = presses(n, func() time.Duration { return time.Duration(30+rand.IntN(100)) * time.Millisecond }); err != nil {
		return nil, nil, redo, err
	}
	if quiet, err = presses(max(1, n/4), func() time.Duration { return time.Duration(600+rand.IntN(400)) * time.Millisecond }); err != nil {
		return nil, nil, redo, err
	}
	return typing, quiet, redo, nil
}

// pct is the q-quantile of sorted ds (nearest rank).
func pct(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(ds)))) - 1
	return ds[max(0, min(i, len(ds)-1))]
}

func run(idle, pendingFor time.Duration, starts, keys int, bin string) error {
	tmp, err := os.MkdirTemp("", "skytui-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if bin == "" {
		if bin, err = build(tmp); err != nil {
			return fmt.Errorf("build: %w", err)
		}
	}
	for _, tool := range []string{"watch", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s is needed for the comparison (Debian: procps, curl, jq)", tool)
		}
	}

	// a settled account: 20 ready services on a manual clock
	clock := sandbox.NewManualClock(time.Now().UTC().Truncate(time.Second))
	sb := sandbox.New(sandbox.Options{APIKey: key, Clock: clock})
	cnt := &counter{n: map[string]int{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: cnt.wrap(sb), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	base := "http://" + ln.Addr().String()
	c, err := api.New(api.Config{BaseURL: base, APIKey: key, UserAgent: "setup"})
	if err != nil {
		return err
	}
	ctx := context.Background()
	for i := range 20 {
		_, err := c.CreateService(ctx, api.CreateServiceRequest{ServiceType: "transactional", Topology: "es-single",
			Provider: "aws", Region: "us-east-1", Architecture: "amd64", Size: "sky-2x8", Storage: 100, Nodes: 1,
			Name: fmt.Sprintf("bench-svc-%02d", i)})
		if err != nil {
			return err
		}
	}
	clock.Advance(6 * time.Minute)

	env := []string{"SKYSQL_API_KEY=" + key, "TERM=xterm-256color", "XDG_CONFIG_HOME=" + tmp, "XDG_STATE_HOME=" + tmp}
	skytuiArgs := []string{"--api-url", base, "--profile", "bench"}
	cfg := filepath.Join(tmp, "skytui", "config.toml")
	_ = os.MkdirAll(filepath.Dir(cfg), 0o700)
	if err := os.WriteFile(cfg, []byte("[[profile]]\nname = \"bench\"\nbase_url = \""+base+"\"\n"), 0o600); err != nil {
		return err
	}
	watchCmd := fmt.Sprintf(`curl -s -H "X-API-Key: $SKYSQL_API_KEY" %s/provisioning/v1/services | jq`, base)

	// time to the first frame showing data
	first := func(name string, args []string) (time.Duration, error) {
		var ds []time.Duration
		for range starts {
			t0 := time.Now()
			p, err := start(name, args, env)
			if err != nil {
				return 0, err
			}
			for !p.saw("bench-svc-00") {
				if time.Since(t0) > 10*time.Second {
					p.stop()
					return 0, fmt.Errorf("%s showed no data within 10 s", name)
				}
				time.Sleep(time.Millisecond)
			}
			ds = append(ds, time.Since(t0))
			p.stop()
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return ds[len(ds)/2], nil
	}
	ffSky, err := first(bin, skytuiArgs)
	if err != nil {
		return err
	}
	ffWatch, err := first("watch", []string{"-n", "2", watchCmd})
	if err != nil {
		return err
	}

	keyDs, quietDs, redo, err := keyToFrame(bin, skytuiArgs, env, keys)
	if err != nil {
		return err
	}

	// idle, side by side
	sky, err := start(bin, skytuiArgs, env)
	if err != nil {
		return err
	}
	defer sky.stop()
	wat, err := start("watch", []string{"-n", "2", watchCmd}, env)
	if err != nil {
		return err
	}
	defer wat.stop()
	time.Sleep(5 * time.Second) // first frames and first fetches
	perMin := func(x float64, d time.Duration) float64 { return x * float64(time.Minute) / float64(d) }
	type row struct {
		name        string
		bytes, cpu  float64
		rss         float64
		first       time.Duration
		reqSettled  float64
		reqPending  float64
		pendingNote string
	}
	// idleRow notes p's counters now and returns what reads its row after
	// the idle time (who: p's name in the request counter).
	idleRow := func(p *proc, who string) func(name string, first time.Duration) row {
		b0, c0, r0 := p.bytes.Load(), cpu(p.cmd.Process.Pid), cnt.get(who)
		return func(name string, first time.Duration) row {
			return row{name: name,
				bytes:      perMin(float64(p.bytes.Load()-b0), idle),
				cpu:        perMin((cpu(p.cmd.Process.Pid) - c0).Seconds(), idle),
				rss:        peakRSS(p.cmd.Process.Pid),
				first:      first,
				reqSettled: perMin(float64(cnt.get(who)-r0), idle)}
		}
	}
	skyRow, watRow := idleRow(sky, "skytui"), idleRow(wat, "watch")
	time.Sleep(idle)
	rs, rw := skyRow("skytui", ffSky), watRow("watch + curl + jq", ffWatch)

	// while a service is pending (-pending 0 skips it)
	if pendingFor > 0 {
		if _, err := c.CreateService(ctx, api.CreateServiceRequest{ServiceType: "transactional", Topology: "es-single",
			Provider: "aws", Region: "us-east-1", Architecture: "amd64", Size: "sky-2x8", Storage: 100, Nodes: 1, Name: "bench-pending"}); err != nil {
			return err
		}
		// skytui notices it at its next (slow) poll, then polls fast
		for deadline := time.Now().Add(45 * time.Second); !sky.saw("bench-pending") && time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond)
		}
		time.Sleep(time.Second)
		r1s, r1w := cnt.get("skytui"), cnt.get("watch")
		time.Sleep(pendingFor)
		rs.reqPending = perMin(float64(cnt.get("skytui")-r1s), pendingFor)
		rw.reqPending = perMin(float64(cnt.get("watch")-r1w), pendingFor)
	}

	host, _ := os.Hostname()
	fmt.Printf("skytui beside `watch -n 2 'curl … | jq'` — %s, %d cores, %s, idle %s, pending %s, 20 services, 120x40 pty\n\n",
		runtime.GOOS+"/"+runtime.GOARCH, runtime.NumCPU(), host, idle, pendingFor)
	fmt.Println("| | bytes to the terminal per idle minute | CPU seconds per idle minute | peak RSS | first data frame (median) | key to frame p50 / p99 | API requests per minute, settled | while pending |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
	for _, r := range []row{rs, rw} {
		keys := "—" // watch takes no keys
		if r.name == "skytui" {
			keys = ms(pct(keyDs, 0.50)) + " / " + ms(pct(keyDs, 0.99))
		}
		fmt.Printf("| %s | %.0f | %.3f | %.1f MB | %s | %s | %.1f | %.1f |\n", r.name, r.bytes, r.cpu, r.rss,
			r.first.Round(time.Millisecond), keys, r.reqSettled, r.reqPending)
	}
	ratio := 0.0
	if rs.bytes > 0 {
		ratio = rw.bytes / rs.bytes
	}
	fmt.Printf("\nkey to frame: %d presses of j and k on the Services screen 30–130 ms apart, min %s, max %s; after 0.6–1 s without input (%d presses): p50 %s, p99 %s, max %s. %d taken again: the first output was not a row repaint.\n",
		len(keyDs), ms(pct(keyDs, 0)), ms(pct(keyDs, 1)), len(quietDs), ms(pct(quietDs, 0.5)), ms(pct(quietDs, 0.99)), ms(pct(quietDs, 1)), redo)
	fmt.Printf("watch writes %.0fx the bytes skytui writes while idle. (watch's RSS is its own; curl and jq are new processes every 2 s.)\n", ratio)
	return nil
}
