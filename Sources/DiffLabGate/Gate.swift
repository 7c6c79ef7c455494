// Filled in by the gate work: statistics and verdicts of the regression gate.
import DiffLabJSON
