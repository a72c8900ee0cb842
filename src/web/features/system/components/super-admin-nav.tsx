import { Banknote, History, Landmark, Percent, Users, Wrench } from "lucide-react";
import { Link, useLocation } from "react-router";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";

const links = [
  { to: paths.admin.users(), label: "Users", icon: Users },
  { to: paths.admin.finance(), label: "Finance", icon: Landmark },
  { to: paths.admin.payouts(), label: "Payouts", icon: Banknote },
  { to: paths.admin.taxRates(), label: "Tax rates", icon: Percent },
  { to: paths.admin.system(), label: "System", icon: Wrench },
  { to: paths.admin.audit(), label: "Audit Log", icon: History },
];

/** Moves between the super-admin screens without going back to the dashboard. */
export function SuperAdminNav() {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Super admin" className="mt-6 flex flex-wrap gap-2">
      {links.map(({ to, label, icon: Icon }) => {
        const current = pathname === to;
        return (
          <Button key={to} asChild size="sm" variant={current ? "default" : "outline"}>
            <Link to={to} aria-current={current ? "page" : undefined}>
              <Icon aria-hidden /> {label}
            </Link>
          </Button>
        );
      })}
    </nav>
  );
}
