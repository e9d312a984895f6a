package api

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// ValidateGCSKey checks that doc is a service-account JSON key document.
func ValidateGCSKey(doc []byte) error {
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		return fmt.Errorf("GCS key: not a JSON document: %v", err)
	}
	if t, _ := m["type"].(string); t != "service_account" {
		return fmt.Errorf(`GCS key: "type" must be "service_account" (got %q)`, t)
	}
	for _, f := range []string{"client_email", "private_key"} {
		if s, _ := m[f].(string); s == "" {
			return fmt.Errorf("GCS key: %q is missing", f)
		}
	}
	return nil
}

// EncodeGCSCredentials returns the base64 of the compacted service-account
// key document, as gs:// targets expect.
func EncodeGCSCredentials(doc []byte) (string, error) {
	if err := ValidateGCSKey(doc); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, doc); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// S3Credentials are the parts of an s3:// credentials block.
type S3Credentials struct {
	AccessKeyID     string
	SecretAccessKey string
	Region          string
}

// Validate checks that every part is present and has no line breaks.
func (c S3Credentials) Validate() error {
	for _, f := range []struct{ name, v string }{
		{"aws_access_key_id", c.AccessKeyID},
		{"aws_secret_access_key", c.SecretAccessKey},
		{"region", c.Region},
	} {
		if strings.TrimSpace(f.v) == "" {
			return fmt.Errorf("S3 credentials: %s is required", f.name)
		}
		if strings.ContainsAny(f.v, "\r\n") {
			return fmt.Errorf("S3 credentials: %s must be on one line", f.name)
		}
	}
	return nil
}

// Block is the [default] text block of the credentials.
func (c S3Credentials) Block() string {
	return fmt.Sprintf("[default]\naws_access_key_id = %s\naws_secret_access_key = %s\nregion = %s\n",
		strings.TrimSpace(c.AccessKeyID), strings.TrimSpace(c.SecretAccessKey), strings.TrimSpace(c.Region))
}

// EncodeS3Credentials returns the base64 of the [default] block.
func EncodeS3Credentials(c S3Credentials) (string, error) {
	if err := c.Validate(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString([]byte(c.Block())), nil
}

// ParseS3Block reads a [default] block back into its parts.
func ParseS3Block(block string) (S3Credentials, error) {
	var c S3Credentials
	section := ""
	for _, line := range strings.Split(block, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";") {
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			section = strings.TrimSpace(line[1 : len(line)-1])
			continue
		}
		if section != "default" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return c, fmt.Errorf("S3 credentials: line %q is not name = value", line)
		}
		switch strings.TrimSpace(k) {
		case "aws_access_key_id":
			c.AccessKeyID = strings.TrimSpace(v)
		case "aws_secret_access_key":
			c.SecretAccessKey = strings.TrimSpace(v)
		case "region":
			c.Region = strings.TrimSpace(v)
		}
	}
	if section == "" && c.AccessKeyID == "" {
		return c, fmt.Errorf("S3 credentials: no [default] section")
	}
	return c, c.Validate()
}

// ValidateEncodedCredentials checks base64 credentials for a bucket scheme
// ("gs" or "s3"). The message never contains the secret.
func ValidateEncodedCredentials(scheme, b64 string) error {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if err != nil {
		return fmt.Errorf("must be base64-encoded")
	}
	switch scheme {
	case "gs":
		if err := ValidateGCSKey(raw); err != nil {
			return fmt.Errorf("must be a base64-encoded service-account JSON key (%v)", err)
		}
	case "s3":
		if _, err := ParseS3Block(string(raw)); err != nil {
			return fmt.Errorf("must be a base64-encoded [default] block with aws_access_key_id, aws_secret_access_key and region (%v)", err)
		}
	}
	return nil
}
