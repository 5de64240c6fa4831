// `colorfeed-app`: ColorFeed as `offstage daemon` runs it (from a ColorFeed.app bundle), a real process with the
// app's code alone: no simulator, so none of the simulator's interposition of libdispatch and the clocks.
import ColorFeed
import OffstageKit

OffstageApplication.main(makeDelegate: ColorFeed.makeDelegate)
