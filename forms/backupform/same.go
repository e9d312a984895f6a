package backupform

import (
	"fmt"
	"strings"

	"github.com/robfig/cron/v3"

	"github.com/skytui/skytui/api"
)

// The review's warning of a schedule the service has already: one of the
// same type whose runs are the new one's, however either expression is
// written (0 3 * * 1-5 and 0 3 * * MON-FRI are one schedule). It is the
// same backup only when it writes to the same place; one to another place
// is said as the same times to another place.

// sameSchedule is a schedule of the service that takes req's type of
// backup at req's times already (one writing where req writes first), or
// nil (a one-off never repeats one); samePlace says that it writes where
// req writes.
func (b *Form) sameSchedule(req api.ScheduleRequest) (sc *api.Schedule, samePlace bool) {
	want := oneSpaced(req.Schedule)
	if want == "" || want == "once" {
		return nil, false
	}
	for i := range b.schedules {
		s := &b.schedules[i]
		if (s.ServiceID != "" && s.ServiceID != b.svc.ID) || !strings.EqualFold(s.Type, req.BackupType) || !sameRuns(s.Expression(), want) {
			continue
		}
		if samePlaceAs(s.TargetText(), requestDest(req)) {
			return s, true
		}
		if sc == nil {
			sc = s
		}
	}
	return sc, false
}

// sameScheduleWarning says that the service has req's schedule already,
// or one at its times writing elsewhere ("": it has neither); the user
// may still submit a second one.
func (b *Form) sameScheduleWarning(req api.ScheduleRequest, svcName string) string {
	sc, same := b.sameSchedule(req)
	if sc == nil {
		return ""
	}
	expr := oneSpaced(sc.Expression())
	which := fmt.Sprintf("schedule %d, %s at %s", int64(sc.ID), sc.Type, expr)
	if want := oneSpaced(req.Schedule); want != expr {
		which += ", the same runs as " + want
	}
	if sc.Suspended {
		which += ", suspended"
	}
	if same {
		return fmt.Sprintf("%s has this schedule already: %s. Submitting adds a second one, taking the same backup at the same times (enter still submits it)",
			svcName, which)
	}
	return fmt.Sprintf("%s has a schedule at these times already: %s, to %s. This one writes to %s: submitting adds a second %s backup at the same times, to another place (enter still submits it)",
		svcName, which, placeWords(sc.TargetText()), placeWords(requestDest(req)), req.BackupType)
}

func oneSpaced(s string) string { return strings.Join(strings.Fields(s), " ") }

// requestDest is where req writes, in the words of api's TargetText:
// api.ManagedPlace or the bucket path.
func requestDest(req api.ScheduleRequest) string {
	if req.ExternalStorage == nil {
		return api.ManagedPlace
	}
	return strings.TrimSpace(req.ExternalStorage.Bucket.Path)
}

func samePlaceAs(a, b string) bool { return strings.TrimRight(a, "/") == strings.TrimRight(b, "/") }

func placeWords(place string) string {
	if place == api.ManagedPlace {
		return "managed storage"
	}
	return place
}

// star is the bit robfig/cron sets on a field written "*" (its starBit):
// it changes how the two day fields combine (runsOn), not which minutes
// and hours run.
const star = uint64(1) << 63

// sameRuns reports that two cron expressions run at the same times: the
// same minutes and hours, on the same days. An expression that does not
// parse is the same as another written the same only.
func sameRuns(a, b string) bool {
	a, b = oneSpaced(a), oneSpaced(b)
	if a == b {
		return true
	}
	pa, errA := api.ParseCron(a)
	pb, errB := api.ParseCron(b)
	if errA != nil || errB != nil {
		return false
	}
	x, okX := pa.(*cron.SpecSchedule)
	y, okY := pb.(*cron.SpecSchedule)
	if !okX || !okY {
		return false
	}
	if x.Minute&^star != y.Minute&^star || x.Hour&^star != y.Hour&^star {
		return false
	}
	// every day of every month (29 February too) falls on every day of the
	// week in some year: the days are the same if they are for each
	for month := 1; month <= 12; month++ {
		for day := 1; day <= daysIn(month); day++ {
			for weekday := range 7 {
				if runsOn(x, month, day, weekday) != runsOn(y, month, day, weekday) {
					return false
				}
			}
		}
	}
	return true
}

// runsOn reports that s runs on that day, as robfig/cron decides: both
// day fields restricted, either matching is enough; one of them "*", both
// must match.
func runsOn(s *cron.SpecSchedule, month, day, weekday int) bool {
	if s.Month&(1<<uint(month)) == 0 {
		return false
	}
	dom, dow := s.Dom&(1<<uint(day)) != 0, s.Dow&(1<<uint(weekday)) != 0
	if s.Dom&star != 0 || s.Dow&star != 0 {
		return dom && dow
	}
	return dom || dow
}

// daysIn is the most days month has (29 for February).
func daysIn(month int) int {
	switch month {
	case 2:
		return 29
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
