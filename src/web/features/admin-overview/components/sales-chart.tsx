import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { OverviewDay } from "#domain/admin-overview";
import { formatDay } from "#web/features/admin-overview/format";
import { usd } from "#web/features/finance/components/usd";

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const axisTick = { fill: "var(--color-muted-foreground)", fontSize: 12 };

/**
 * Gross sales per day as bars and orders as a line, in the theme's colours so it reads in light and
 * dark. Loaded on its own (recharts is large) and only by the admin overview; the same figures are in a
 * table for screen readers, so the drawing is hidden from them.
 */
export default function SalesChart({ days }: { days: OverviewDay[] }) {
  const data = days.map((d) => ({ ...d, label: formatDay(d.date) }));
  return (
    <div className="h-64 w-full" aria-hidden data-testid="overview-chart">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart
          data={data}
          margin={{ top: 8, right: 0, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid vertical={false} stroke="var(--color-border)" />
          <XAxis
            dataKey="label"
            tickLine={false}
            axisLine={false}
            tick={axisTick}
            interval="preserveStartEnd"
            minTickGap={16}
          />
          <YAxis
            yAxisId="sales"
            width={48}
            tickLine={false}
            axisLine={false}
            tick={axisTick}
            tickFormatter={(value: number) => `$${compact.format(value)}`}
          />
          <YAxis
            yAxisId="orders"
            orientation="right"
            width={28}
            allowDecimals={false}
            tickLine={false}
            axisLine={false}
            tick={axisTick}
          />
          <Tooltip
            cursor={{ fill: "var(--color-muted)", opacity: 0.5 }}
            contentStyle={{
              background: "var(--color-popover)",
              color: "var(--color-popover-foreground)",
              border: "1px solid var(--color-border)",
              borderRadius: 8,
            }}
            labelStyle={{ color: "var(--color-popover-foreground)" }}
            formatter={(value, name) => (name === "Gross sales" ? [usd(Number(value)), name] : [value, name])}
          />
          <Bar
            yAxisId="sales"
            isAnimationActive={false}
            dataKey="grossSales"
            name="Gross sales"
            fill="var(--color-primary)"
            radius={[3, 3, 0, 0]}
          />
          <Line
            yAxisId="orders"
            isAnimationActive={false}
            type="linear"
            dataKey="orders"
            name="Orders"
            stroke="var(--color-foreground)"
            strokeWidth={2}
            dot={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
