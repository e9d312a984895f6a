package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// Seeds come from the live example bodies in ../testdata/live; `make fuzz`
// runs each target briefly, `go test` runs the seeds.

func seedLive(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "live", "*.json"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{``, `null`, `[]`, `{}`, `[{}]`, `{"restores":null}`, `{"backups":[{"id":1}]}`, `"x"`, `[1,2]`, `{"pages_count":"7","backups":[]}`} {
		f.Add([]byte(s))
	}
}

// The decoders never panic, and what they accept round-trips.
func FuzzDecodeLists(f *testing.F) {
	seedLive(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		if rs, _, err := decodeList[Restore](body, "restores"); err == nil {
			for _, r := range rs {
				_ = r.Running()
				if _, err := json.Marshal(r); err != nil {
					t.Fatalf("decoded restore does not encode: %v", err)
				}
			}
		}
		if bs, _, err := decodeList[Backup](body, "backups"); err == nil {
			for _, b := range bs {
				_ = BackupState(b.Status)
				if _, err := json.Marshal(b); err != nil {
					t.Fatalf("decoded backup does not encode: %v", err)
				}
			}
		}
		_, _, _ = decodeList[Service](body, "services")
		_, _, _ = decodeList[Schedule](body, "schedules")
		_, _, _ = decodeList[BackupStatus](body, "backups")
		_, _ = decodeOne[Restore](body)
		e := ErrorFromResponse("GET", "/x", 500, nil, body)
		if msg := e.Error(); !utf8.ValidString(msg) && utf8.Valid(body) {
			t.Fatalf("error message is not valid UTF-8: %q", msg)
		}
	})
}

func FuzzFlexTime(f *testing.F) {
	for _, s := range []string{`1785549600`, `"2026-08-01T02:00:00Z"`, `"1785549600000"`, `1e300`, `-1`, `"2026-13-45"`, `null`, `""`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var tm Time
		if err := tm.UnmarshalJSON(b); err == nil {
			if _, err := tm.MarshalJSON(); err != nil && tm.Year() >= 0 && tm.Year() <= 9999 {
				t.Fatalf("accepted %q but cannot encode: %v", b, err)
			}
		}
		var n FlexInt
		_ = n.UnmarshalJSON(b)
		var s FlexString
		_ = s.UnmarshalJSON(b)
	})
}

// Validators never panic and, when they refuse, name a field.
func FuzzValidators(f *testing.F) {
	for _, s := range []string{"once", "0 2 * * *", "s3://bkt/path", "gs://bkt/", "203.0.113.7/32", "dbtgf1", "::1", "*/5 * * * 1-5", "s3://", "gs:///", "60 24 32 13 8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, check := range []func(string) error{
			ValidateServiceName, ValidateProvider, ValidateBackupType, ValidateSchedule,
			ValidateBackupBucketPath, ValidateRestoreBucket, ValidateMethod, ValidateAllowListIP, ValidateServiceID,
		} {
			if err := check(s); err != nil {
				fe, ok := err.(*FieldError)
				if !ok || fe.Field == "" || fe.Rule == "" {
					t.Fatalf("%q: error %v does not name a field and a rule", s, err)
				}
			}
		}
		_ = ValidateBaseURL(s)
		_ = ValidateEncodedCredentials("gs", s)
		_ = ValidateEncodedCredentials("s3", s)
		_, _ = ParseS3Block(s)
		if ValidateAllowListIP(s) == nil {
			if ValidateAllowListIP(NormalizeAllowListIP(s)) != nil {
				t.Fatalf("%q valid but its normal form is not", s)
			}
		}
	})
}
