package api

import (
	"strings"
	"testing"
)

// One odd field costs that field, never the record or the list.
func TestLenientListKeepsRecordsWithOddFields(t *testing.T) {
	body := `{"backups":[
		{"id":"a:dbt1:p","service_id":"dbt1","status":"Succeeded","start_time":"last tuesday","backup_size":"huge"},
		{"id":"b:dbt1:p","service_id":"dbt1","status":"Running","start_time":1785549600,"is_external_storage":"yes"},
		"not a backup",
		{"id":"c:dbt2:p","service_id":{"x":1},"status":7}
	],"pages_count":1}`
	bs, pages, err := decodeList[Backup]([]byte(body), "backups")
	if err != nil {
		t.Fatal(err)
	}
	if pages != 1 || len(bs) != 3 {
		t.Fatalf("want 3 backups on 1 page, got %d on %d: %+v", len(bs), pages, bs)
	}
	if bs[0].Key != "a:dbt1:p" || !bs[0].StartTime.Unread() || bs[0].StartTime.Raw != "last tuesday" {
		t.Errorf("first: %+v", bs[0])
	}
	if bs[1].StartTime.Unix() != 1785549600 || bs[1].Known("is_external_storage") {
		t.Errorf("second: known=%v %+v", bs[1].Known("is_external_storage"), bs[1])
	}
	if bs[2].ServiceID != "" || bs[2].Known("service_id") || bs[2].Status != "7" {
		t.Errorf("third: %+v", bs[2])
	}
}

func TestLenientServiceNestedFieldsAndNumbers(t *testing.T) {
	body := `[{"id":"dbt1","name":"orders","status":"ready","nodes":"three","created_on":"not a time",
		"endpoints":[{"name":"primary","ports":[{"name":"readwrite","port":"3306"},{"name":"x","port":true}]}],
		"storage_volume":{"size":1e30}}]`
	ss, _, err := decodeList[Service]([]byte(body), "services")
	if err != nil || len(ss) != 1 {
		t.Fatalf("%v %+v", err, ss)
	}
	s := ss[0]
	if s.Name != "orders" || s.Nodes != 0 || s.Known("nodes") || !s.CreatedOn.Unread() {
		t.Errorf("service: %+v", s)
	}
	if s.ReadWritePort() != 3306 {
		t.Errorf("numeric string port: %d", s.ReadWritePort())
	}
	if s.Known("endpoints") || s.StorageVolume == nil || s.StorageVolume.Size != 0 || s.Known("storage_volume") {
		t.Errorf("unread nested fields not recorded: %v", s.Unread)
	}
}

func TestLenientRestoreIDOutOfRange(t *testing.T) {
	r, err := decodeOne[Restore]([]byte(`{"id":9.9e18,"service_id":"dbt1","status":"Running"}`))
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != 0 || r.Known("id") {
		t.Errorf("9.9e18 must be unknown, not %d", r.ID)
	}
}

func TestDecodeListEmptyOrNullIsAnError(t *testing.T) {
	for _, body := range []string{"", "  ", "null"} {
		if _, _, err := decodeList[Service]([]byte(body), "services"); err == nil {
			t.Errorf("%q must not decode as an empty list", body)
		}
	}
	if got, _, err := decodeList[Restore]([]byte(`{}`), "restores"); err != nil || len(got) != 0 {
		t.Errorf("an envelope without the list is an empty list: %v %v", got, err)
	}
}

func TestCleanText(t *testing.T) {
	cases := map[string]string{
		"db.example.com\x1b]0; touch FILE;\x07":    "db.example.com",
		"a\x1b[2Jb":                                "ab",
		"\x1b]52;c;Zm9v\x07clip":                   "clip",
		"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\": "link",
		"evil\u202egpj.exe":                        "evilgpj.exe",
		"c1\u009b31mred":                           "c1red",
		"two\nlines\r\n\tand tab":                  "two lines and tab",
		"bell\x07del\x7f":                          "belldel",
		"ünïcødé 数据库 ok":                           "ünïcødé 数据库 ok",
		"bad\xffutf8":                              "bad\ufffdutf8",
		"\x1bP1$r\x1b\\dcs":                        "dcs",
		"\x1b(Bcharset":                            "charset",
	}
	for in, want := range cases {
		if got := CleanText(in); got != want {
			t.Errorf("CleanText(%q) = %q, want %q", in, got, want)
		}
	}
}

// Strings are cleaned where they are decoded, so every user of a record
// gets the clean value.
func TestDecodeCleansStrings(t *testing.T) {
	c, err := decodeOne[Credentials]([]byte(`{"username":"u","password":"p","host":"db.example.com\u001b]0; touch FILE;\u0007"}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.Host != "db.example.com" {
		t.Errorf("host not cleaned: %q", c.Host)
	}
	e := ErrorFromResponse("GET", "/x", 401, nil, []byte("denied\x1b]52;c;Zm9v\x07\x1b[2J"))
	if strings.ContainsAny(e.Error(), "\x1b\x07") {
		t.Errorf("error text not cleaned: %q", e.Error())
	}
}

func TestOddRestoreRecords(t *testing.T) {
	rs, _, err := decodeList[Restore]([]byte(`[{"id":null},{"id":"x","status":null},{"id":7,"status":"Running"},{"id":9.9e18,"status":"Succeeded"}]`), "restores")
	if err != nil || len(rs) != 4 {
		t.Fatalf("%v %+v", err, rs)
	}
	running := 0
	for _, r := range rs {
		if r.Running() {
			running++
		}
	}
	if running != 1 {
		t.Errorf("%d restores count as running, want only the one that says so", running)
	}
	if rs[3].ID != 0 || rs[3].Known("id") {
		t.Errorf("id 9.9e18 shows as %d", rs[3].ID)
	}
}
