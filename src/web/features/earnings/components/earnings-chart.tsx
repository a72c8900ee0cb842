import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { EarningsPoint } from "#domain/earnings";
import { formatMonth, usd } from "#web/features/earnings/format";

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/**
 * Net per month as bars, drawn with the theme's colours so it reads in light and dark. Loaded on its
 * own (recharts is large); the figures are also in a table for screen readers, so the drawing is hidden
 * from them.
 */
export default function EarningsChart({ points }: { points: EarningsPoint[] }) {
  const data = points.map((point) => ({ ...point, label: formatMonth(point.month) }));
  return (
    <div className="h-64 w-full" aria-hidden data-testid="earnings-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          data={data}
          margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          // The table beside the chart is what screen readers and the keyboard get; no focus stop here.
          accessibilityLayer={false}
        >
          <CartesianGrid vertical={false} stroke="var(--color-border)" />
          <XAxis
            dataKey="label"
            tickLine={false}
            axisLine={false}
            tick={{ fill: "var(--color-muted-foreground)", fontSize: 12 }}
            interval="preserveStartEnd"
            minTickGap={8}
          />
          <YAxis
            width={48}
            tickLine={false}
            axisLine={false}
            tick={{ fill: "var(--color-muted-foreground)", fontSize: 12 }}
            tickFormatter={(value: number) => `$${compact.format(value)}`}
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
            formatter={(value) => [usd(Number(value)), "Net"]}
          />
          <Bar
            isAnimationActive={false}
            dataKey="net"
            name="Net"
            fill="var(--color-primary)"
            radius={[4, 4, 0, 0]}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
