"""Disbursement data: the three banking-data options, the authorised banks, the Pix directory check."""
