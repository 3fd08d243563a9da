//go:build unix && !linux

package cache

// mapPopulate is 0 where the system has no MAP_POPULATE.
const mapPopulate = 0
