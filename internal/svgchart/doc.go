// Package svgchart draws the dashboard's charts as inline SVG, server-side:
// bar charts (stacked or grouped by series) and step lines over labelled
// points, with labelled axes and units, a legend, a <title> and <desc>,
// and the chart's data as an HTML table beside it for screen readers and
// for copying. Colours are CSS classes (s0, s1, …) that the page gives
// the Okabe–Ito palette, in light and dark mode; the SVG has no script, no
// font and no external reference.
package svgchart
