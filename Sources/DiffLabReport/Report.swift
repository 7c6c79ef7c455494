// Filled in by the report work: markdown reports with SVG plots from DiffLab results files.
import DiffLabJSON
