package cli

import (
	"testing"

	"github.com/skytui/skytui/sandbox"
)

// TestRestoreBucketIsTheBucketAlone: --bucket is gs://NAME/ or s3://NAME/
// alone (the rule the restore wizard applies too); a path after the name,
// a file's whole path or a folder, is refused before anything is sent,
// naming the split to pass: the bucket alone and the path in --file (not
// the path with a slash after it).
func TestRestoreBucketIsTheBucketAlone(t *testing.T) {
	h, sb := newChangeHarness(t)
	create := func(bucket string, more ...string) []string {
		return h.live(append([]string{"restores", "create", "--service", sandbox.DemoAnalytics, "--bucket", bucket,
			"--method", "mysqldump", "--creds", "C", "--yes", "--confirm", sandbox.DemoAnalytics}, more...)...)
	}
	const rule = "skytui: invalid request: --bucket (external_source.bucket): has a path after the bucket name "
	for _, c := range []struct {
		bucket string
		file   []string
		want   string
	}{
		{"gs://qa1-b/dumps/x.sql.gz", nil,
			rule + "(dumps/x.sql.gz): the bucket is gs://qa1-b/ alone, the path belongs to the backup file; pass --bucket gs://qa1-b/ --file dumps/x.sql.gz (nothing was sent)\n"},
		{"gs://qa1-b/dumps/x.sql.gz", []string{"--file", "x.sql.gz"},
			rule + "(dumps/x.sql.gz): the bucket is gs://qa1-b/ alone, the path belongs to the backup file; pass --bucket gs://qa1-b/ --file dumps/x.sql.gz (nothing was sent)\n"},
		{"gs://qa1-b/dumps/", []string{"--file", "x.sql.gz"},
			rule + "(dumps/): the bucket is gs://qa1-b/ alone, the path belongs to the backup file; pass --bucket gs://qa1-b/ --file dumps/x.sql.gz (nothing was sent)\n"},
		{"s3://qa1-b/dumps", []string{"--file", "x.sql.gz"},
			rule + "(dumps): the bucket is s3://qa1-b/ alone, the path belongs to the backup file; pass --bucket s3://qa1-b/ --file dumps/x.sql.gz (nothing was sent)\n"},
		{"gs://qa1-b/dumps/a.sql.gz", []string{"--file", "b.sql.gz"},
			rule + "(dumps/a.sql.gz): the bucket is gs://qa1-b/ alone, the path belongs to the backup file; pass --bucket gs://qa1-b/ and the file's whole path in --file (nothing was sent)\n"},
		{"gs://qa1-b", []string{"--file", "x.sql.gz"},
			"skytui: invalid request: --bucket (external_source.bucket): must end with a trailing slash after the bucket name: gs://qa1-b/ (nothing was sent)\n"},
	} {
		stderr := h.fails(exitUsage, c.want, create(c.bucket, c.file...)...)
		if stderr != c.want {
			t.Errorf("--bucket %s %v:\n%q, want\n%q", c.bucket, c.file, stderr, c.want)
		}
	}
	if n := sb.Stats().Count("POST", "/skybackup/v1/restores"); n != 0 {
		t.Fatalf("%d restores sent by refused commands", n)
	}
}
