// Package backupform is the new-backup form of one service: the Backups
// screen opens it, and the Restores screen's cross-provider migration
// reuses it to write a backup to the user's bucket.
//
// A form is a component, not a screen: the host screen embeds it, gives it
// its size and its messages, and receives what it emits (a submit carrying
// the kit.Action to hand to kit.Do, or a cancel carrying the draft to
// reopen with). It does I/O only in tea.Cmds, validates with the api
// package's rules as the user types, and never holds a secret: stored
// credentials are read from the keystore inside the action's Run.
package backupform
