package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/skytui/skytui/sandbox/mariadb"
)

// SQLMariaDB: a real mariadbd per ready service. What takes real time —
// starting a server (about half a second), dumping a backup, loading a
// restore — runs in a goroutine, never under the store lock; the object
// stays in its in-between state meanwhile (the service pending_create,
// the backup and the restore Running) and completes through
// Server.complete at the sandbox time the work ends.

// slowWork is handed the slow steps, with the store locked; it must not
// block or call the Server.
type slowWork interface {
	startServer(s *service)
	dumpBackup(b *backup)
	loadRestore(r *restore, target *service)
}

// lookMariaDB finds the programs SQLMariaDB runs (a variable for tests).
var lookMariaDB = func() error {
	if _, _, err := mariadb.Binaries(); err != nil {
		return err
	}
	_, _, err := mariadb.ClientBinaries()
	return err
}

// realEgress is the outbound IP of mariadb-backed services: replicas
// connect to primaries over loopback, so grants name 127.0.0.1.
const realEgress = "127.0.0.1"

type realSQL struct {
	srv     *Server
	cluster *mariadb.Cluster
	dir     string
	ownDir  bool
	ctx     context.Context
	cancel  context.CancelFunc

	mu      sync.Mutex
	closed  bool
	wg      sync.WaitGroup
	servers map[string]*mariadb.Server // by service ID
}

func newRealSQL(dir string) (*realSQL, error) {
	if err := lookMariaDB(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoMariaDB, err)
	}
	// A new directory per run: data directories are never reused.
	own := dir == ""
	if !own {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
	}
	dir, err := os.MkdirTemp(dir, "skytui-mariadb-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if err := errors.Join(os.MkdirAll(filepath.Join(dir, "backups"), 0o700), os.MkdirAll(filepath.Join(dir, "servers"), 0o700)); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	cl, err := mariadb.NewCluster(ctx, filepath.Join(dir, "servers"))
	cancel()
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("sandbox: --mariadb: %w", err)
	}
	rctx, rcancel := context.WithCancel(context.Background())
	return &realSQL{cluster: cl, dir: dir, ownDir: own, ctx: rctx, cancel: rcancel, servers: map[string]*mariadb.Server{}}, nil
}

// spawn runs f in a goroutine unless the sandbox is closing.
func (r *realSQL) spawn(f func(ctx context.Context)) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return false
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		f(r.ctx)
	}()
	return true
}

func (r *realSQL) server(id string) *mariadb.Server {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.servers[id]
}

func (r *realSQL) close() {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	r.cancel()
	r.wg.Wait()
	r.cluster.Close()
	if r.ownDir {
		os.RemoveAll(r.dir)
	}
}

// startServer starts the service's server with its default user; the
// service becomes ready (or failed) when it is up.
func (r *realSQL) startServer(s *service) {
	id, user, pw := s.id, s.username, s.password
	ok := r.spawn(func(ctx context.Context) {
		srv, err := r.cluster.Start(ctx, mariadb.Options{Name: id, ServiceID: id, OutboundIP: realEgress})
		if err == nil {
			if err = srv.SetAdmin(ctx, user, pw, ""); err != nil {
				srv.Stop()
			}
		}
		if err == nil {
			r.mu.Lock()
			r.servers[id] = srv
			r.mu.Unlock()
		}
		r.srv.complete(func(st *store, now time.Time) {
			svc := st.services[id]
			if svc == nil || svc.status != statusPendingCreate {
				return
			}
			if err != nil {
				st.completeLaunch(svc, Ports{}, fmt.Errorf("mariadbd: %w", err), now)
				return
			}
			st.completeLaunch(svc, Ports{ReadWrite: srv.Port, ReadOnly: srv.Port}, nil, now)
		})
	})
	if !ok {
		st := r.srv.st // locked by the caller
		st.completeLaunch(s, Ports{}, fmt.Errorf("the sandbox is shutting down"), st.now)
	}
}

// dumpBackup takes the backup's logical copy and its real binary log
// position; the backup succeeds (or fails) when the dump is written.
func (r *realSQL) dumpBackup(b *backup) {
	key, id := b.key, b.serviceID
	path := filepath.Join(r.dir, "backups", fmt.Sprintf("backup-%d.sql", b.seq))
	srv := r.server(id)
	finish := func(pos mariadb.Position, err error) func(*store, time.Time) {
		return func(st *store, _ time.Time) {
			b := st.byKey[key]
			if b == nil || b.status != jobRunning {
				return
			}
			if err != nil {
				b.status, b.storageBytes = jobFailed, 0
				b.message = "Backup failed: " + err.Error()
				return
			}
			b.status, b.message = jobSucceeded, "Backup has succeeded!"
			b.gtid, b.binlogFile, b.binlogPos, b.dump = pos.GTID, pos.File, pos.Pos, path
			if list, ok := parseGTIDList(pos.GTID); ok {
				for _, g := range list {
					if g.domain == 0 {
						b.gtidSeq = g.seq
					}
				}
			}
		}
	}
	if srv == nil {
		finish(mariadb.Position{}, fmt.Errorf("the service %s has no running server", id))(r.srv.st, r.srv.st.now)
		return
	}
	ok := r.spawn(func(ctx context.Context) {
		pos, err := srv.Dump(ctx, path)
		r.srv.complete(finish(pos, err))
	})
	if !ok {
		finish(mariadb.Position{}, fmt.Errorf("the sandbox is shutting down"))(r.srv.st, r.srv.st.now)
	}
}

// loadRestore replaces the target server's data by the backup's copy,
// forgets its replication state and gives it the source's default user;
// the restore succeeds (or fails) when that is done.
func (r *realSQL) loadRestore(rs *restore, target *service) {
	rid, id := rs.id, target.id
	dump, user, pw, oldUser := rs.dump, rs.username, rs.password, target.username
	srv := r.server(id)
	finish := func(err error) func(*store, time.Time) {
		return func(st *store, now time.Time) {
			rs := st.restoreByID(rid)
			if rs == nil || rs.status != jobRunning {
				return
			}
			if err == nil {
				st.applyRestore(rs, now)
				return
			}
			rs.status, rs.loading, rs.end = jobFailed, false, now
			rs.message = "Restore failed: " + err.Error()
			if s := st.services[rs.serviceID]; s != nil && s.restoring == rs.id {
				s.status, s.prevStatus, s.restoring, s.updated = s.prevStatus, "", 0, now
			}
		}
	}
	if srv == nil {
		finish(fmt.Errorf("the service %s has no running server", id))(r.srv.st, r.srv.st.now)
		return
	}
	ok := r.spawn(func(ctx context.Context) {
		err := srv.ResetReplication(ctx)
		if err == nil && dump != "" {
			// A backup without a copy (taken elsewhere, or from a bucket)
			// leaves the data as it is.
			err = srv.Load(ctx, dump)
		}
		if err == nil {
			err = srv.SetAdmin(ctx, user, pw, oldUser)
		}
		r.srv.complete(finish(err))
	})
	if !ok {
		finish(fmt.Errorf("the sandbox is shutting down"))(r.srv.st, r.srv.st.now)
	}
}

// complete runs f on the store, advanced to now, under the lock: how slow
// work reports back.
func (s *Server) complete(f func(st *store, now time.Time)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.advance(s.clock.Now())
	f(s.st, s.st.now)
}

// MariaDB returns the real server behind a service (SQLMariaDB), or nil
// before it is up and in the other modes. Tests use it as root.
func (s *Server) MariaDB(serviceID string) *mariadb.Server {
	if s.sql.real == nil {
		return nil
	}
	return s.sql.real.server(serviceID)
}
