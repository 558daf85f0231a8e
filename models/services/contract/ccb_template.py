"""Every fixed text of the Cédula de Crédito Bancário (CCB), in one place for the lender's legal team.

This is a TEMPLATE TO BE REVIEWED by the lender's legal team before production use (README, "The
contract (CCB)"). Wording can be changed here without touching the layout code
(``pdf.py``/``pdf_layout.py``); the numbers come from the contract terms (``terms.py``) and are
formatted in ``brazilian_format.py``.

Placeholders in braces are filled with formatted values; the ones available are the keys of
``pdf.fields`` (listed in ``PLACEHOLDERS`` below, which a test checks against the renderer).
Helvetica is drawn in the WinAnsi (cp1252) encoding: use plain quotes and hyphens or characters of
that encoding only (accents, "º", "ª", "§" are fine; curly quotes outside it, "≤" or "Σ" are not),
which a test also checks.
"""

from __future__ import annotations

# Printed in the footer of every page: a signed copy names the wording it carries.
TEMPLATE_VERSION = "CCB-CONSIGNADO-PRIVADO v1"

PLACEHOLDERS = (
    "ccb_number",
    "contract_id",
    "generated_at",
    "issue_place",
    "payment_place",
    "borrower_name",
    "borrower_cpf",
    "borrower_birth_date",
    "borrower_email",
    "borrower_phone",
    "creditor_name",
    "creditor_cnpj",
    "creditor_address",
    "originator_name",
    "originator_code",
    "released_amount",
    "financed_amount",
    "iof_amount",
    "tac_amount",
    "insurance_amount",
    "interest_amount",
    "total_amount",
    "installments",
    "installments_text",
    "installment_amount",
    "first_due_date",
    "final_due_date",
    "monthly_rate",
    "annual_rate",
    "cet_monthly",
    "cet_annual",
    "late_fee",
    "default_interest",
    "disbursement_date",
    "destination",
    "customer_service",
    "ombudsman",
    "cet_release_date",
)

# --- Header -------------------------------------------------------------------------------------
TITLE = "CÉDULA DE CRÉDITO BANCÁRIO - CCB"
SUBTITLE = "Empréstimo pessoal consignado com desconto em folha de pagamento - trabalhador do setor privado"
HEADER = "CCB nº {ccb_number}  |  Contrato {contract_id}  |  Documento gerado em {generated_at} (horário de Brasília)"
CCB_NUMBER_PENDING = "a atribuir pelo credor"
FOOTER = "CCB nº {ccb_number}  |  Contrato {contract_id}  |  {template_version}  |  Página {page} de {pages}"

# --- I. Quadro-resumo ---------------------------------------------------------------------------
SUMMARY_TITLE = "I. QUADRO-RESUMO"
SUMMARY = (
    ("Valor liberado ao emitente", "{released_amount}"),
    ("Valor financiado (total do crédito)", "{financed_amount}"),
    ("IOF (financiado)", "{iof_amount}"),
    ("Tarifa de cadastro - TAC (financiada)", "{tac_amount}"),
    ("Seguro prestamista (financiado)", "{insurance_amount}"),
    ("Valor total a pagar", "{total_amount}"),
    ("Taxa de juros", "{monthly_rate}  |  {annual_rate}"),
    ("Custo Efetivo Total - CET", "{cet_monthly}  |  {cet_annual}"),
    ("Parcelas", "{installments_text}"),
    ("Forma de pagamento", "Desconto em folha de pagamento"),
    ("Primeiro vencimento", "{first_due_date}"),
    ("Último vencimento", "{final_due_date}"),
    ("Data prevista da liberação", "{disbursement_date}"),
    ("Multa e juros de mora", "{late_fee} da parcela  |  {default_interest}"),
    ("Destino do crédito", "{destination}"),
    ("Praça de pagamento", "{payment_place}"),
)
INSTALLMENTS_EQUAL = "{count} parcelas mensais e sucessivas de {amount}"
INSTALLMENTS_LAST_ADJUSTED = (
    "{count} parcelas mensais e sucessivas: {count_equal} de {amount} e a última "
    "de {last_amount} (ajuste de arredondamento)"
)
DESTINATION_PIX = "Pix para a chave {key_type} {key}, de titularidade do emitente ({holder_name}, CPF {holder_cpf})"
DESTINATION_ACCOUNT = (
    "crédito na {account_type} nº {account}, agência {branch}, banco {bank_code} - {bank_name}, de "
    "titularidade do emitente ({holder_name}, CPF {holder_cpf})"
)
PIX_KEY_TYPES = {"CPF": "CPF", "EMAIL": "e-mail", "PHONE": "celular", "EVP": "aleatória (EVP)"}
ACCOUNT_TYPES = {"checking": "conta corrente", "savings": "conta poupança", "payment": "conta de pagamento"}
ACCOUNT_TYPE_UNKNOWN = "conta"
BANK_NAME_UNKNOWN = "banco não identificado"

# --- II. Partes -----------------------------------------------------------------------------------
PARTIES_TITLE = "II. PARTES"
BORROWER_TITLE = "EMITENTE (devedor)"
BORROWER = (
    ("Nome", "{borrower_name}"),
    ("CPF", "{borrower_cpf}"),
    ("Data de nascimento", "{borrower_birth_date}"),
    ("E-mail", "{borrower_email}"),
    ("Celular", "{borrower_phone}"),
)
CREDITOR_TITLE = "CREDOR (instituição financeira que concede o crédito)"
CREDITOR = (
    ("Razão social", "{creditor_name}"),
    ("CNPJ", "{creditor_cnpj}"),
    ("Endereço", "{creditor_address}"),
)
ORIGINATOR_TITLE = "CORRESPONDENTE (originador da operação)"
ORIGINATOR = (
    ("Nome", "{originator_name}"),
    ("Código", "{originator_code}"),
)

# --- III. Cláusulas --------------------------------------------------------------------------------
CLAUSES_TITLE = "III. CLÁUSULAS"
CLAUSES = (
    (
        "1. PROMESSA DE PAGAMENTO",
        "O EMITENTE promete pagar ao CREDOR, ou à sua ordem, em moeda corrente nacional, por esta Cédula de "
        "Crédito Bancário, a dívida em dinheiro, certa, líquida e exigível, no valor total de {total_amount}, em "
        "{installments_text}, vencendo-se a primeira em {first_due_date} e a última em {final_due_date}, nas datas "
        "e nos valores de cada parcela do Anexo I (cronograma de pagamento), que integra esta Cédula.",
    ),
    (
        "2. CRÉDITO E LIBERAÇÃO",
        "O CREDOR concede ao EMITENTE crédito no valor financiado de {financed_amount}, composto pelo valor "
        "liberado ao EMITENTE, de {released_amount}, e pelos encargos financiados: IOF de {iof_amount}, tarifa de "
        "cadastro (TAC) de {tac_amount} e prêmio de seguro prestamista de {insurance_amount}. O valor liberado será "
        "pago ao EMITENTE por {destination}, com data prevista em {disbursement_date}, depois da assinatura desta Cédula e "
        "da averbação do desconto em folha. O comprovante da transferência prova a liberação.",
    ),
    (
        "3. JUROS E CUSTO EFETIVO TOTAL",
        "Sobre o valor financiado incidem juros remuneratórios prefixados de {monthly_rate}, equivalentes a "
        "{annual_rate}, capitalizados mensalmente (Lei nº 10.931/2004, art. 28, § 1º, I) e calculados pelo sistema "
        "francês de amortização (Tabela Price), somando {interest_amount} no prazo total. O Custo Efetivo Total "
        "(CET) desta operação é de {cet_monthly}, equivalente a {cet_annual}, calculado na forma da Resolução CMN "
        "nº 4.881/2020 e demonstrado na planilha do Anexo II.",
    ),
    (
        "4. AUTORIZAÇÃO DE DESCONTO EM FOLHA DE PAGAMENTO",
        "Nos termos da Lei nº 10.820/2003, com as alterações da Lei nº 15.179/2025, o EMITENTE autoriza, de forma "
        "irrevogável e irretratável, o seu empregador a descontar de sua remuneração, todo mês, o valor de cada "
        "parcela, dentro do limite da margem consignável previsto na legislação, e a repassá-lo ao CREDOR até o "
        "vencimento. Enquanto o desconto não estiver averbado, ou sempre que não for feito no todo ou em parte, o "
        "EMITENTE continua obrigado a pagar a parcela diretamente ao CREDOR, na praça de pagamento ({payment_place}), "
        "pelos meios que o CREDOR lhe indicar.",
    ),
    (
        "5. EXTINÇÃO OU SUSPENSÃO DO CONTRATO DE TRABALHO",
        "Se o contrato de trabalho do EMITENTE for extinto ou suspenso: (a) o EMITENTE autoriza o desconto do saldo "
        "devedor sobre as verbas rescisórias, nos limites da legislação; (b) os descontos poderão ser "
        "redirecionados a outro vínculo de emprego do EMITENTE, atual ou futuro, na forma da Lei nº 10.820/2003; "
        "(c) o que não for pago dessa forma continua devido nas datas e nos valores do Anexo I, e o EMITENTE o "
        "pagará diretamente ao CREDOR. Garantias com recursos do FGTS só se aplicam se contratadas expressamente "
        "em instrumento próprio.",
    ),
    (
        "6. LIQUIDAÇÃO ANTECIPADA",
        "O EMITENTE pode liquidar antecipadamente esta Cédula, total ou parcialmente, a qualquer tempo, com redução "
        "proporcional dos juros e demais acréscimos (Código de Defesa do Consumidor, art. 52, § 2º). O valor para "
        "liquidação é o das parcelas a vencer trazidas a valor presente, na data do pagamento, pela taxa de juros "
        "desta Cédula ({monthly_rate}). O pedido e o valor atualizado podem ser obtidos pelos canais de "
        "atendimento: {customer_service}.",
    ),
    (
        "7. DIREITO DE ARREPENDIMENTO",
        "O EMITENTE pode desistir desta contratação no prazo de 7 (sete) dias, contados da assinatura desta Cédula "
        "ou do recebimento do valor liberado (Código de Defesa do Consumidor, art. 49), comunicando a desistência "
        "ao CREDOR por: {customer_service}. Exercida a desistência, o EMITENTE restitui ao CREDOR o valor liberado, "
        "nos meios e prazo que o CREDOR lhe informar, sem juros nem tarifas; valores que já tenham sido pagos ou "
        "descontados são devolvidos ao EMITENTE, monetariamente atualizados.",
    ),
    (
        "8. ATRASO E INADIMPLEMENTO",
        "Sobre a parcela paga depois do vencimento incidem, do vencimento até o pagamento: multa de {late_fee} do "
        "valor da parcela (Código de Defesa do Consumidor, art. 52, § 1º), juros de mora de {default_interest} e "
        "os juros remuneratórios desta Cédula. O não pagamento pode levar ao vencimento antecipado do saldo "
        "devedor, observada a legislação aplicável e depois de notificado o EMITENTE.",
    ),
    (
        "9. PROTEÇÃO DE DADOS PESSOAIS (LGPD)",
        "O EMITENTE consentiu, de forma livre, informada e inequívoca (Lei nº 13.709/2018, art. 7º, I, e art. 8º), "
        "com a consulta de sua margem consignável e de seus dados de vínculo de emprego nos sistemas de "
        "consignação, e com o tratamento de seus dados pessoais para análise de crédito, contratação, averbação, "
        "cobrança e prevenção a fraudes desta operação. As evidências desse consentimento (endereço IP, "
        "geolocalização, data e hora, código SHA-256 do texto aceito e horário da validação do código enviado por "
        "SMS) estão no Anexo III. Os direitos de titular previstos na LGPD podem ser exercidos pelos canais de "
        "atendimento: {customer_service}.",
    ),
    (
        "10. ASSINATURA ELETRÔNICA E EMISSÃO",
        "Esta Cédula é emitida e assinada eletronicamente. O EMITENTE a assina no provedor de assinatura "
        "eletrônica indicado pelo CREDOR, com validação de identidade, prova de vida e análise antifraude. A via "
        "assinada reproduz este documento e acrescenta uma página final com as evidências da assinatura "
        "(provedor, identificador do processo, resultado de cada validação, data e hora, e o código SHA-256 deste "
        "documento não assinado). A data da assinatura é a data de emissão desta Cédula, no local de emissão "
        "indicado abaixo.",
    ),
    (
        "11. DISPOSIÇÕES GERAIS",
        "Esta Cédula é título executivo extrajudicial e representa dívida em dinheiro, certa, líquida e exigível "
        "(Lei nº 10.931/2004, art. 28), e é transferível mediante endosso em preto (art. 29, § 1º). O Quadro-resumo "
        "e os Anexos I, II e III integram esta Cédula. Dúvidas, reclamações e pedidos: {customer_service}. "
        "Ouvidoria: {ombudsman}. Fica eleito o foro do domicílio do EMITENTE.",
    ),
)

# --- IV. Emissão e assinaturas ---------------------------------------------------------------------
SIGNATURES_TITLE = "IV. LOCAL, DATA DE EMISSÃO E ASSINATURAS"
ISSUE_STATEMENT = (
    "Local de emissão: {issue_place}. Data de emissão: a da assinatura eletrônica do EMITENTE, "
    "registrada na página de evidências da via assinada."
)
SIGNATURE_LINES = (
    ("EMITENTE", "{borrower_name} - CPF {borrower_cpf}", "assinatura eletrônica (página de evidências)"),
    ("CREDOR", "{creditor_name} - CNPJ {creditor_cnpj}", "emissão eletrônica em favor do credor"),
)

# --- Anexo I: cronograma ---------------------------------------------------------------------------
SCHEDULE_TITLE = "ANEXO I - CRONOGRAMA DE PAGAMENTO (datas e valores de cada parcela)"
SCHEDULE_INTRO = (
    "Parcelas mensais pagas por desconto em folha de pagamento, na praça de pagamento "
    "{payment_place}. O saldo devedor é o que resta depois do pagamento de cada parcela."
)
SCHEDULE_HEADER = ("Nº", "Vencimento", "Parcela", "Juros", "Amortização", "Saldo devedor")
SCHEDULE_TOTAL = "Total"

# --- Anexo II: planilha do CET ---------------------------------------------------------------------
CET_TITLE = "ANEXO II - PLANILHA DE CÁLCULO DO CUSTO EFETIVO TOTAL (Resolução CMN nº 4.881/2020)"
CET_COMPONENTS_HEADER = ("Componente do valor financiado", "Valor", "% do valor financiado")
CET_COMPONENT_NAMES = {
    "released": "Valor liberado ao emitente",
    "iof": "IOF",
    "tac": "Tarifa de cadastro (TAC)",
    "insurance": "Seguro prestamista",
}
CET_COMPONENTS_TOTAL = "Valor financiado (total)"
CET_ROUNDING_NOTE = (
    "Percentuais arredondados a duas casas pelo método dos maiores restos: cada um difere do "
    "valor exato em menos de 0,01 ponto percentual e a soma é exatamente 100,00%."
)
CET_INTEREST_LINE = (
    "Juros remuneratórios no prazo total: {interest_amount}. Valor total a pagar = valor "
    "financiado ({financed_amount}) + juros ({interest_amount}) = {total_amount}."
)
CET_RATE_LINE = "CET: {cet_monthly}  |  {cet_annual}"
CET_FORMULA = (
    "O CET é a taxa anual que iguala o valor liberado na data da liberação (FC0) à soma das "
    "parcelas (FCj), cada uma descontada pelo seu prazo em dias corridos (dj): FC0 = soma de "
    "FCj / (1 + CET)^(dj/365). A taxa mensal é a equivalente: (1 + CET anual)^(1/12) - 1. Os encargos "
    "são financiados, e por isso nada é pago na liberação além do que já está nas parcelas."
)
CET_FLOWS_TITLE = "Fluxos considerados no cálculo (data-base da liberação: {cet_release_date})"
CET_FLOWS_HEADER = ("Fluxo", "Data", "Dias", "Valor")
CET_FLOW_RELEASE = "Liberação"

# --- Anexo III: consentimento ----------------------------------------------------------------------
CONSENT_TITLE = "ANEXO III - EVIDÊNCIAS DO CONSENTIMENTO PARA CONSULTA DE DADOS (LGPD)"
CONSENT_INTRO = (
    "Consentimento dado pelo EMITENTE antes da consulta de sua margem consignável e da análise de "
    "crédito, registrado pelo canal do correspondente."
)
CONSENT = (
    ("Canal", "{channel}"),
    ("Endereço IP", "{ip}"),
    ("Geolocalização (latitude, longitude)", "{latitude}, {longitude}"),
    ("Data e hora do consentimento", "{captured_at} (horário de Brasília)"),
    ("SHA-256 do texto aceito", "{document_text_sha256}"),
    ("Validação do código enviado por SMS", "{token_validated_at}"),
)
CONSENT_MISSING = (("Consentimento", "não registrado"),)
TOKEN_NOT_VALIDATED = "não registrada"

# --- Página de evidências da assinatura (via assinada) ---------------------------------------------
EVIDENCE_TITLE = "PÁGINA DE EVIDÊNCIAS DA ASSINATURA ELETRÔNICA"
EVIDENCE_INTRO = (
    "Esta página integra a via assinada da Cédula de Crédito Bancário nº {ccb_number} (contrato "
    "{contract_id}) e registra a sua assinatura eletrônica pelo EMITENTE. As páginas anteriores "
    "reproduzem o documento não assinado identificado pelo código SHA-256 abaixo, que continua "
    "disponível como via original."
)
EVIDENCE = (
    ("Emitente (signatário)", "{borrower_name} - CPF {borrower_cpf}"),
    ("Provedor de assinatura eletrônica", "{provider}"),
    ("Identificador do processo de assinatura", "{process_id}"),
    ("Resultado do processo", "{process_result}"),
    ("Autenticação de identidade", "{authentication_result}"),
    ("Prova de vida", "{liveness_result}"),
    ("Análise antifraude", "{trust_result}"),
    ("Data e hora da assinatura (data de emissão)", "{signed_at} (horário de Brasília)"),
    ("Local de emissão", "{issue_place}"),
    ("SHA-256 do documento não assinado", "{original_sha256}"),
)
# What each provider result means to a reader; a code not listed is printed as received.
RESULT_MEANINGS = {
    "PROCESS_RESULT_OK": "processo concluído",
    "AUTHENTICATION_RESULT_POSITIVE": "identidade confirmada",
    "LIVENESS_RESULT_LIVE": "pessoa presente confirmada",
    "TRUST_RESULT_NO": "sem indício de fraude",
}
RESULT_TEXT = "{code} ({meaning})"
NOT_INFORMED = "não informado"

# --- PDF metadata ------------------------------------------------------------------------------------
META_TITLE = "Cédula de Crédito Bancário nº {ccb_number}"
META_SUBJECT = "Empréstimo consignado com desconto em folha - contrato {contract_id}"
META_SUBJECT_SIGNED = "Empréstimo consignado com desconto em folha - contrato {contract_id} - via assinada"
