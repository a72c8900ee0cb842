import { Moon, Sun } from "lucide-react";
import { useEffect } from "react";
import { Button } from "#web/components/ui/button";
import { applyTheme, setTheme, themeStore } from "#web/features/theme/theme-store";

export function ThemeToggle() {
  const theme = themeStore.use();
  // Another tab may switch the theme; follow it.
  useEffect(() => applyTheme(theme), [theme]);
  const next = theme === "dark" ? "light" : "dark";
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={`Switch to ${next} theme`}
      aria-pressed={theme === "dark"}
      onClick={() => setTheme(next)}
      data-testid="theme-toggle"
    >
      {theme === "dark" ? <Sun /> : <Moon />}
    </Button>
  );
}
