"""Well-known models of Odoo's core addons and the module that defines them.

Used when no Odoo source is indexed, so ``_inherit = "sale.order"`` without ``sale`` in the
dependencies is still caught. Only models whose home module is stable across 16.0-19.0.
"""

from __future__ import annotations

_BY_MODULE = {
    "base": "res.partner res.users res.company res.groups res.country res.country.state res.currency "
    "res.lang res.bank res.partner.bank res.partner.category res.config.settings ir.model ir.model.fields "
    "ir.ui.view ir.ui.menu ir.actions.act_window ir.actions.server ir.actions.report ir.cron "
    "ir.attachment ir.sequence ir.rule ir.model.access ir.config_parameter ir.module.module "
    "ir.module.category",
    "mail": "mail.thread mail.activity.mixin mail.message mail.activity mail.template mail.followers "
    "mail.mail mail.alias",
    "product": "product.product product.template product.category product.pricelist",
    "uom": "uom.uom",
    "sale": "sale.order sale.order.line",
    "purchase": "purchase.order purchase.order.line",
    "account": "account.move account.move.line account.account account.journal account.tax "
    "account.payment account.payment.term account.analytic.line",
    "stock": "stock.picking stock.move stock.move.line stock.location stock.warehouse stock.quant "
    "stock.lot stock.picking.type",
    "hr": "hr.employee hr.department hr.job",
    "project": "project.project project.task",
    "sales_team": "crm.team",
    "crm": "crm.lead crm.stage",
    "mrp": "mrp.production mrp.bom mrp.bom.line mrp.workorder",
    "website": "website website.page website.menu",
    "calendar": "calendar.event",
    "analytic": "account.analytic.account account.analytic.plan",
}

CORE_MODEL_OWNERS: dict[str, str] = {
    model: module for module, models in _BY_MODULE.items() for model in models.split()
}
