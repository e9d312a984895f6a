package restores

import (
	"fmt"
	"strings"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/forms/backupform"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
)

// The migration's copy step: where the backup is, where it goes (typed
// by the user), the command that copies it, and the restore wizard's
// options prefilled from all that.

// schemeFor is the bucket scheme of a provider's storage (gs on GCP, s3
// on AWS), else fallback, else s3.
func schemeFor(provider, fallback string) string {
	switch strings.ToLower(provider) {
	case "gcp":
		return "gs"
	case "aws":
		return "s3"
	}
	if fallback != "" {
		return fallback
	}
	return "s3"
}

func (m *migration) toCopy() {
	m.step = migCopy
	m.stepErr = ""
	m.top = 0
	// the scheme the target's provider reads is the placeholder's, not a
	// value: a whole URL pasted is the destination (backupform.SchemeOnly)
	m.dest.Placeholder = backupform.PathPlaceholder(schemeFor(m.dst().Provider, schemeOf(m.sourcePath())))
	if m.sourceErr() != nil {
		return // nothing to copy: no destination to type
	}
	m.editing = true
	m.dest.CursorEnd()
	m.dest.Focus()
}

func (m *migration) sourcePath() string {
	if m.backup != nil && m.backup.Bucket != "" {
		return strings.TrimSuffix(m.backup.Bucket, "/")
	}
	return strings.TrimSuffix(m.path(), "/")
}

// sourceErr is why there is nothing to copy, nil when there is: the
// backup's bucket path is not known (it was not taken to a bucket), and a
// copy command with an empty source copies nothing.
func (m *migration) sourceErr() error {
	if m.sourcePath() != "" {
		return nil
	}
	return fmt.Errorf("the backup of %s has no bucket path: it is not in your own bucket, so there is nothing to copy or restore from", m.src().NameOrID())
}

// noCommand is why the copy step has no command to copy yet, "" when it
// has one: nothing to copy from, or no destination (or one that is not a
// bucket path). y and the command are left out of the step meanwhile.
func (m *migration) noCommand() string {
	if err := m.sourceErr(); err != nil {
		return err.Error()
	}
	if strings.TrimSpace(m.dest.Value()) == "" {
		return "nothing to copy yet: no destination (" + m.keys.Edit.Help().Key + " types it)"
	}
	if _, err := m.destPath(); err != nil {
		return "nothing to copy yet: " + err.Error()
	}
	return ""
}

func schemeOf(uri string) string {
	s, _, _, _ := api.ParseBucketURI(uri)
	return s
}

// destPath is the copy's destination folder: the typed URI, or the typed
// bucket with the source's folder when only a bucket was typed.
func (m *migration) destPath() (string, error) {
	v := strings.TrimSpace(m.dest.Value())
	if v == "" {
		return "", fmt.Errorf("destination: is required (expected gs://<bucket>/<folder> or s3://<bucket>/<folder>)")
	}
	scheme, bucket, path, err := api.ParseBucketURI(v)
	if err != nil {
		return "", fmt.Errorf("destination: %v (expected gs://<bucket>/<folder> or s3://<bucket>/<folder>)", err)
	}
	if strings.Trim(path, "/") == "" {
		_, _, sp, _ := api.ParseBucketURI(m.sourcePath())
		path = strings.Trim(sp, "/")
	}
	return scheme + "://" + bucket + "/" + strings.Trim(path, "/"), nil
}

// CopyCommand is the command that copies the backup folder src to dst:
// aws s3 cp between s3:// buckets, gsutil cp between gs:// buckets, and
// gsutil rsync across the two (gsutil reads s3:// with boto credentials).
func CopyCommand(src, dst string) (cmd, note string) {
	src, dst = strings.TrimSuffix(src, "/"), strings.TrimSuffix(dst, "/")
	s, d := schemeOf(src), schemeOf(dst)
	switch {
	case s == "s3" && d == "s3":
		return kit.ShellCommand("aws", "s3", "cp", "--recursive", src, dst), "needs the AWS CLI with access to both buckets"
	case s == "gs" && d == "gs":
		return kit.ShellCommand("gsutil", "-m", "cp", "-r", src, dst), "needs gsutil (Google Cloud SDK) with access to both buckets"
	}
	return kit.ShellCommand("gsutil", "-m", "rsync", "-r", src, dst),
		"gsutil reads and writes s3:// with boto credentials: put aws_access_key_id and aws_secret_access_key in the [Credentials] section of ~/.boto"
}

// ListCommand lists a folder, to check the backup file's name.
func ListCommand(folder string) string {
	folder = strings.TrimSuffix(folder, "/") + "/"
	if schemeOf(folder) == "s3" {
		return kit.ShellCommand("aws", "s3", "ls", folder)
	}
	return kit.ShellCommand("gsutil", "ls", folder)
}

// restoreOptions opens the own-bucket restore into the target with every
// field prefilled from the migration.
func (m *migration) restoreOptions() (*restoreform.Options, error) {
	if err := m.sourceErr(); err != nil {
		return nil, err
	}
	dest, err := m.destPath()
	if err != nil {
		return nil, err
	}
	scheme, bucket, folder, _ := api.ParseBucketURI(dest)
	method := api.MethodMariabackup
	if m.backup != nil {
		switch {
		case m.backup.Method == api.MethodMysqldump, m.backup.Type == api.BackupLogical, m.backup.Type == api.BackupDump:
			method = api.MethodMysqldump
		}
	}
	file := strings.Trim(folder, "/") + "/" + backupFileGuess(m.backup)
	note := fmt.Sprintf("Prefilled by the migration of %s (%s) to %s (%s): the backup was copied to %s. The API does not report the backup's file name, so it is a guess: check it with `%s` and correct it if needed.",
		m.src().NameOrID(), m.src().Provider, m.dst().NameOrID(), m.dst().Provider, dest, ListCommand(dest))
	return &restoreform.Options{
		Origin:     ID,
		Source:     restoreform.SourceBucket,
		TargetID:   m.dstID,
		LockTarget: true,
		Services:   m.svcList,
		Bucket: restoreform.BucketPrefill{
			Bucket:        scheme + "://" + bucket + "/",
			File:          file,
			Method:        method,
			Note:          note,
			SourceService: m.src().NameOrID(),
		},
	}, nil
}

// backupFileGuess names the backup file: the hash part of its key, gzip.
func backupFileGuess(b *api.Backup) string {
	if b == nil || b.Key == "" {
		return "backup.gz"
	}
	h, _, _ := strings.Cut(b.Key, ":")
	ext := ".gz"
	if b.Method == api.MethodMysqldump || b.Type == api.BackupLogical || b.Type == api.BackupDump {
		ext = ".sql.gz"
	}
	return h + ext
}
