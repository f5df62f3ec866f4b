//! Drawing a scenario's map as SVG.
