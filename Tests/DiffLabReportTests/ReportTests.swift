import DiffLabReport
import Testing
