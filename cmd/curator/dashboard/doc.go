// Package dashboardcmd is `curator dashboard`: the store's health page
// (memory flow, the playbook, the runs, links to the pipeline pages)
// written to a file, or its series printed with --json.
package dashboardcmd
