"""Documents made from the campaign: orders of battle, battle-setup sheets and the diary."""
