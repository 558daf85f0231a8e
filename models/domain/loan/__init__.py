"""Loan math in Decimal: Price amortization, IOF, the gross-up of financed charges, CET
(Res. CMN 4.881/2020), the pricing inputs, offers within the payroll margin and simulations.

Import from the module that holds a name (``models.domain.loan.price`` and so on): the package
itself re-exports nothing, so a module and a function of the same name never shadow each other.
"""
