"""The documented sandbox CPFs (README "Sandbox test data"); every sandbox adapter reads them here."""

NO_MARGIN = "10000000108"  # rejected: NO_AVAILABLE_MARGIN
IRREGULAR_CPF = "10000000280"  # rejected: IRREGULAR_CPF
INSUFFICIENT_SCORE = "10000000361"  # rejected: INSUFFICIENT_SCORE
PAYROLL_UNAVAILABLE = "10000000442"  # CREDIT_ANALYSIS_FAILED on the first attempt; a retry succeeds
PAYROLL_AUTO_RETRY = "10000000523"  # PAYROLL_SYSTEM_FAILED_AWAITING_RETRY, then offers
ENGINE_ERROR = "10000000604"  # CREDIT_ANALYSIS_FAILED (credit engine error)
SLOW_ANALYSIS = "10000000795"  # takes longer than the hybrid wait: 202, then offers
DELINQUENT = "10000001171"  # re-contracting: 45 overdue days once it has a DISBURSED contract
DELINQUENT_OVERDUE_DAYS = 45
