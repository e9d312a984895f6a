package demosql

import "testing"

// Parse never panics, and what it reads back is of a known kind.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"CALL sky.start_replication()",
		"CALL sky.change_external_primary_gtid('dbtgf1.sandbox.localhost',3306,'0-1-42',1)",
		"CALL sky.change_external_primary('h', 3306, 'mariadb-bin.000042', 1534, FALSE)",
		"GRANT REPLICATION SLAVE ON *.* TO 'u'@'198.51.100.7' IDENTIFIED BY 'p''w\\'x';",
		"select @@version_comment limit 1", "CALL sky.x('open", "CALL sky.x(,)", "CALL sky.x(1,,2)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		st, err := Parse(q)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%q: error of type %T", q, err)
			}
			return
		}
		switch st := st.(type) {
		case Call:
			for _, a := range st.Args {
				switch a.(type) {
				case string, int64, bool, nil:
				default:
					t.Fatalf("%q: argument of type %T", q, a)
				}
			}
		case Grant, selectConst:
		default:
			t.Fatalf("%q: parsed into %T", q, st)
		}
	})
}
