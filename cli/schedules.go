package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// schedules get, edit and delete: one backup schedule by its ID (the ID
// column of `skytui schedules list --service SERVICE`).

var scheduleFlags = map[string]string{"schedule": "--cron", "backup_type": "--type"}

// parseScheduleID reads the ID argument of a schedule command.
func parseScheduleID(arg string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(arg), 10, 64)
	if err != nil || id <= 0 {
		return 0, usageErrf("schedule ID %q: must be a positive number (the ID column of `skytui schedules list --service SERVICE`)", arg)
	}
	return id, nil
}

func newSchedulesGetCmd(e *env) *cobra.Command {
	return verb("get ID", "Read one backup schedule", "", cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
		c, id, err := e.openRecord(cmd, args[0], parseScheduleID)
		if err != nil {
			return err
		}
		sc, err := c.client.GetSchedule(cmd.Context(), id)
		if err != nil {
			return readErr(err)
		}
		return c.out.emit(e.stdout, sc, schedulesTable([]api.Schedule{*sc}))
	})
}

func newSchedulesEditCmd(e *env) *cobra.Command {
	var cf changeFlags
	var cronExpr, typ string
	var suspend, resume bool
	cmd := cf.verb(changeOnly, "edit ID [--cron EXPR] [--type TYPE] [--suspend | --resume]",
		"Change a backup schedule's cron expression or type, suspend or resume it",
		`Change a backup schedule: its 5-field cron expression (in UTC), its backup
type, or suspend it (no backups are taken while suspended) and resume it
(runs go on from the next time; missed runs are not taken):

  skytui schedules edit 12 --cron "30 2 * * 1-5"
  skytui schedules edit 12 --suspend`,
		cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
			id, err := parseScheduleID(args[0])
			if err != nil {
				return err
			}
			if suspend && resume {
				return usageErrf("--suspend and --resume: give one of them")
			}
			u := api.ScheduleUpdate{Schedule: strings.TrimSpace(cronExpr), BackupType: typ}
			if suspend || resume {
				u.Suspended = &suspend
			}
			if u.BackupType == "" && u.Schedule == "" && u.Suspended == nil {
				return usageErrf("nothing to change: give --cron, --type, --suspend or --resume")
			}
			if err := u.Validate(); err != nil {
				return requestErr(err, scheduleFlags)
			}
			c, err := e.openChange(cmd, &cf, "schedules edit")
			if err != nil {
				return err
			}
			// a one-time job has nothing to change (the API refuses it, as
			// the UI does before asking); a schedule that cannot be read is
			// left to the API
			switch cur, err := c.client.GetSchedule(cmd.Context(), id); {
			case err == nil && cur.OneTime():
				return usageErrf("schedule %d is a one-time job: it cannot be edited, suspended or resumed (nothing was sent); `skytui backups create --service %s --type %s` takes a new backup (with --schedule CRON, a new schedule)",
					id, c.scheduleService(cmd.Context(), cur), kit.ShellQuote(api.BackupTypeOn(c.client.LiveBackup(), api.OrID(cur.Type, api.BackupFull))))
			case api.IsNotFound(err):
				return &exitError{code: exitNotFound, err: err}
			case err != nil && cmd.Context().Err() != nil:
				return err
			case err != nil:
				fmt.Fprintf(e.stderr, "skytui: schedules edit: schedule %d could not be read (%s); the API judges the change\n", id, firstLine(err))
			}
			sc, err := c.client.UpdateSchedule(cmd.Context(), id, u)
			if err := e.answered(sc, err, scheduleFlags, "skytui schedules get "+strconv.FormatInt(id, 10)); err != nil {
				return err
			}
			named := map[string]any{"schedule_id": id}
			if u.Schedule != "" {
				named["cron"] = u.Schedule
			}
			if u.BackupType != "" {
				named["type"] = u.BackupType
			}
			if u.Suspended != nil {
				named["suspended"] = *u.Suspended
			}
			t := schedulesTable([]api.Schedule{*sc})
			if sc.AnswerUnreadable() != "" {
				// the stand-in knows only what was sent: the rest is not
				// known, not its zero value
				var cols []string
				if u.Schedule == "" {
					cols = append(cols, "SCHEDULE")
				}
				if u.BackupType == "" {
					cols = append(cols, "TYPE")
				}
				if u.Suspended == nil {
					cols = append(cols, "SUSPENDED")
				}
				t.unknown(cols...)
			}
			return c.out.emitAnswer(e.stdout, sc, t, "skytui schedules get "+strconv.FormatInt(id, 10), named)
		})
	fl := cmd.Flags()
	fl.StringVar(&cronExpr, "cron", "", `a new 5-field cron expression in UTC, such as "0 3 * * *"`)
	fl.StringVar(&typ, "type", "", "a new backup type: full, incremental, logical, physical or binarylog; on the live service (backup prefix /skybackup/v1) full, incremental, binarylog, dump or snapshot")
	fl.BoolVar(&suspend, "suspend", false, "suspend the schedule: no backups are taken until it is resumed")
	fl.BoolVar(&resume, "resume", false, "resume a suspended schedule")
	return cmd
}

func newSchedulesDeleteCmd(e *env) *cobra.Command {
	var cf changeFlags
	return cf.verb(withYes, "delete ID --yes",
		"Delete a backup schedule (the backups it took stay)",
		`Delete a backup schedule: it takes no more backups; the backups it took
stay. It needs --yes.`,
		cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
			const what = "schedules delete"
			id, err := parseScheduleID(args[0])
			if err != nil {
				return err
			}
			// a read-only profile is refused first; without --yes the
			// refusal names the schedule, read (a read sends no change)
			c, err := e.openChange(cmd, &cf, what)
			if err != nil {
				return err
			}
			if !cf.yes {
				return scheduleDeleteRefusal(cmd.Context(), c.client, id)
			}
			if err := c.client.DeleteSchedule(cmd.Context(), id); err != nil {
				return sentErr(err, "skytui schedules get "+args[0])
			}
			t := &table{head: []string{"ID", "RESULT"}}
			t.add(strconv.FormatInt(id, 10), "deleted")
			return c.out.emit(e.stdout, map[string]any{"id": id, "deleted": true}, t)
		})
}

// scheduleDeleteRefusal is the refusal of schedules delete without --yes:
// it names the schedule, its service, what it takes and where it writes
// (text from the API cleaned), as the Backups screen's d asks. A schedule
// the API does not have is not found (exit 4); one that cannot be read is
// refused by its ID alone.
func scheduleDeleteRefusal(ctx context.Context, client *api.Client, id int64) error {
	sc, err := client.GetSchedule(ctx, id)
	switch {
	case api.IsNotFound(err):
		return readErr(err)
	case err != nil && ctx.Err() != nil:
		return err
	case err != nil:
		return refusedErrf("schedules delete is destructive: pass --yes to delete schedule %d (it could not be read: %s; nothing was sent)", id, firstLine(err))
	}
	service := sc.ServiceName
	if service == "" {
		service = sc.ServiceID
		if svcs, err := client.ListServices(ctx); err == nil {
			service = nameOf(serviceNames(svcs), sc.ServiceID, "")
		}
	}
	return refusedErrf("schedules delete is destructive: pass --yes to delete schedule %d of %s (%s backups, %s, target %s; the backups it took stay; nothing was sent)",
		id, cell(service), cell(sc.Type), cell(sc.Expression()), cell(sc.TargetText()))
}

// scheduleService names sc's service in a command skytui suggests: as
// argOf does, by its name unless that name is shared (or not a valid
// name); by its ID when the services cannot be listed to tell.
func (c *changeSession) scheduleService(ctx context.Context, sc *api.Schedule) string {
	s := api.Service{ID: sc.ServiceID, Name: sc.ServiceName}
	svcs, err := c.client.ListServices(ctx)
	if err != nil && s.ID != "" {
		s.Name = ""
	}
	return argOf(&s, svcs)
}
